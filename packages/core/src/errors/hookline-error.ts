// The base class's marker: "is it a Hookline error at all". Kept as it always was, so errors from an
// older copy of core are still recognised.
const BASE_MARKER = Symbol.for('hookline.error');

/** Classes without a name (`class extends HooklineError {}`) get a marker of their own that no other class shares. */
const unnamedMarkers = new WeakMap<object, symbol>();

/**
 * The marker of one error class: `Symbol.for('hookline.error.<ClassName>')`. `Symbol.for` keys live in
 * the runtime's global registry, so two installed copies of a package mark their errors alike.
 */
function markerOf(errorClass: object): symbol {
  if (errorClass === HooklineError) return BASE_MARKER;
  const name = (errorClass as { readonly name?: unknown }).name;
  if (typeof name === 'string' && name !== '') return Symbol.for(`hookline.error.${name}`);
  let marker = unnamedMarkers.get(errorClass);
  if (marker === undefined) unnamedMarkers.set(errorClass, (marker = Symbol('hookline.error.<anonymous>')));
  return marker;
}

/**
 * Base class of every error Hookline throws. Errors are for misuse and bugs; expected outcomes
 * (a hook that blocks, fails or times out) are reports, never exceptions.
 *
 * Each error carries one marker per class it is an instance of — its own, its parents', up to this
 * one — so {@link HooklineError.isInstance}, called on any subclass, answers for that class only and
 * also recognises errors thrown by another copy of the package (duplicate installs), where
 * `instanceof` would fail. A subclass gets its marker from its class name and needs no code for it.
 */
export class HooklineError extends Error {
  /** Stable, machine-readable identifier, e.g. `HOOKLINE_CONFIG_INVALID`. */
  readonly code: string;

  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'HooklineError';
    this.code = code;
    for (
      let errorClass: object = new.target;
      errorClass !== Error && errorClass !== null;
      errorClass = Object.getPrototypeOf(errorClass) as object
    ) {
      Object.defineProperty(this, markerOf(errorClass), { value: true });
    }
  }

  /**
   * True when `value` is an instance of the class this is called on, or of one of its subclasses,
   * from any copy of the package: `HooklineError.isInstance(x)` for any Hookline error,
   * `DockerExecError.isInstance(x)` for that error only.
   */
  static isInstance<T>(this: abstract new (...args: never[]) => T, value: unknown): value is T {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[markerOf(this)] === true;
  }
}
