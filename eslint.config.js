// One configuration and one run for the whole repository: `pnpm lint:eslint` runs `eslint .` at the
// root. Type-aware rules find each file's tsconfig.json through the project service, so ESLint sees the
// same programs `tsc` checks; in one process those programs share what they have in common (the
// standard library's and the workspace packages' declarations are parsed once, not once per package),
// which takes about two thirds of the CPU time that one run per package took.
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';

// e2e/: whole packages of tests, their support code included.
const TESTS = ['**/*.test.ts', '**/*.test-d.ts', '**/test-support/**', '**/vitest.config.ts', 'e2e/**'];

/** A double cast throws away what the compiler knows; narrow with a check or fix the type instead. */
const NO_CAST_THROUGH_UNKNOWN = {
  selector: 'TSAsExpression > TSAsExpression.expression[typeAnnotation.type="TSUnknownKeyword"]',
  message: 'No `as unknown as`: narrow the value with a check, or fix the type that makes the cast necessary.',
};

/** What users catch is a HooklineError with a code they can test for, never a bare built-in error. */
const NO_BARE_ERRORS = ['NewExpression', 'CallExpression'].map((node) => ({
  selector: `${node}[callee.type="Identifier"][callee.name=/^(Error|RangeError|TypeError)$/]`,
  message:
    "Throw the package's typed Hookline error with a code (see packages/core/src/errors/), and say what to do next.",
}));

export default defineConfig(
  {
    ignores: ['**/dist/**', '**/node_modules/**', '**/coverage/**', '**/test-fixtures/**'],
  },
  {
    // Deno runs and type-checks these itself, against Deno's globals, which no tsconfig here describes.
    ignores: ['**/runtime-tests/**'],
  },
  js.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  tseslint.configs.stylisticTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        // The root's vitest.config.ts is in no package's project; it is checked with the scripts' settings.
        projectService: { allowDefaultProject: ['vitest.config.ts'], defaultProject: 'scripts/tsconfig.json' },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    linterOptions: {
      reportUnusedDisableDirectives: 'error',
    },
    rules: {
      // Our habit: `record['key']` for index signatures (keys that may be absent), dots for declared properties.
      '@typescript-eslint/dot-notation': ['error', { allowIndexSignaturePropertyAccess: true }],
      // `T[]` for simple element types, `Array<{ … }>` where brackets after a long type would be missed.
      '@typescript-eslint/array-type': ['error', { default: 'array-simple' }],
      // A leading underscore names what is deliberately unused: a rest sibling left out of a copy, or a
      // parameter an interface passes that this implementation does not need.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true },
      ],
      // Off: functions that implement a promise-returning interface are `async` without awaiting, so that
      // a synchronous throw reaches the caller as a rejection like every other failure. Dropping `async`
      // would change that behaviour.
      '@typescript-eslint/require-await': 'off',
      // `||` on strings and booleans is deliberate: an empty string (an unset environment variable, an
      // empty header) falls back like a missing one. `??` stays required for numbers and objects.
      '@typescript-eslint/prefer-nullish-coalescing': ['error', { ignorePrimitives: { string: true, boolean: true } }],
      // Off: these patterns exist to find or strip control characters (terminal output, log excerpts);
      // the rule is meant to catch ones typed by accident.
      'no-control-regex': 'off',
      // Off: `x !== undefined && x.a === b` says the absent case was considered; `x?.a === b` hides it,
      // and `x?.a !== b` turns true when x is absent, the opposite of what the explicit form reads as.
      '@typescript-eslint/prefer-optional-chain': 'off',
      // Rejecting with a caught value or an abort signal's reason passes on what the caller was given;
      // wrapping it would change what the caller catches. (`only-throw-error` allows the same for `throw`.)
      '@typescript-eslint/prefer-promise-reject-errors': [
        'error',
        { allowThrowingAny: true, allowThrowingUnknown: true },
      ],
      // A closure written before the assignment reads the variable; declaring it at the assignment would
      // put the closure's read in the temporal dead zone.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      'no-restricted-syntax': ['error', NO_CAST_THROUGH_UNKNOWN, ...NO_BARE_ERRORS],
    },
  },
  {
    // The conformance kits (`@hookline/core/testing`), benchmarks, examples run by tests and the
    // repository's scripts fail the way a test fails: a plain error is their assertion.
    files: ['**/src/testing/**', '**/bench/**', 'scripts/**', 'docs/**', ...TESTS],
    rules: { 'no-restricted-syntax': ['error', NO_CAST_THROUGH_UNKNOWN] },
  },
  {
    files: TESTS,
    rules: {
      // Tests read parsed JSON and framework mocks and then assert their shape with `expect`; typing each
      // value first would only add casts.
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      // `expect(object.method)` and `vi.spyOn` pass methods around without calling them.
      '@typescript-eslint/unbound-method': 'off',
      // Tests pass no-op callbacks and listeners on purpose.
      '@typescript-eslint/no-empty-function': 'off',
      // Test servers take async handlers: a handler that throws is an unhandled rejection, which fails the test.
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false } }],
      // Test doubles type what they parse loosely, as `any`, for the tests to read into.
      '@typescript-eslint/no-explicit-any': 'off',
      // Tests may cast through unknown to build deliberately malformed input.
      'no-restricted-syntax': 'off',
    },
  },
  {
    // A function fits a screen (60 lines of code), so each phase of an emit reads top-down. The
    // conformance kits are lists of test cases, measured like tests.
    files: ['packages/core/src/**/*.ts'],
    ignores: [...TESTS, 'packages/core/src/testing/**'],
    rules: { 'max-lines-per-function': ['error', { max: 60, skipBlankLines: true, skipComments: true }] },
  },
  {
    // The regular-expression parsers leave a deep recursion with a symbol, a sentinel rather than an
    // error: the caller catches it at once and no stack trace is wanted.
    files: ['packages/core/src/selection/re2-syntax-tree.ts', 'packages/core/src/selection/linear-native-regexp.ts'],
    rules: { '@typescript-eslint/only-throw-error': 'off' },
  },
  {
    // JavaScript files (this one, the CLI's bin shim) are in no tsconfig project and run on Node.
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
  },
);
