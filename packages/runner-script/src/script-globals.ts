/**
 * The globals a script keeps: ECMAScript's built-ins and Intl. Everything else on a fresh context's
 * global object is deleted before the hook runs: V8's `console` (it writes nowhere here), WebAssembly
 * (its memory is allocated outside the isolate's limit), FinalizationRegistry (its callbacks run
 * after the hook's deadline and would stall the next hook), and whatever a V8 flag of the host adds
 * to every isolate (`gc` with --expose-gc, for one). Kept as an allow-list so a new V8 that adds a
 * global does not widen what scripts reach until it is listed here.
 */
export const SCRIPT_GLOBALS: readonly string[] = [
  'globalThis', 'Infinity', 'NaN', 'undefined', 'eval', 'isFinite', 'isNaN', 'parseFloat', 'parseInt',
  'decodeURI', 'decodeURIComponent', 'encodeURI', 'encodeURIComponent', 'escape', 'unescape',
  'Object', 'Function', 'Boolean', 'Symbol', 'Number', 'BigInt', 'Math', 'Date', 'String', 'RegExp', 'JSON', 'Reflect', 'Proxy',
  'Error', 'AggregateError', 'EvalError', 'RangeError', 'ReferenceError', 'SyntaxError', 'TypeError', 'URIError', 'SuppressedError',
  'Array', 'Map', 'Set', 'WeakMap', 'WeakSet', 'WeakRef', 'Iterator', 'Promise', 'DisposableStack', 'AsyncDisposableStack',
  'ArrayBuffer', 'SharedArrayBuffer', 'DataView', 'Atomics', 'Int8Array', 'Uint8Array', 'Uint8ClampedArray', 'Int16Array',
  'Uint16Array', 'Int32Array', 'Uint32Array', 'Float16Array', 'Float32Array', 'Float64Array', 'BigInt64Array', 'BigUint64Array',
  'Intl', 'Temporal',
];
