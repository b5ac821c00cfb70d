import type IsolatedVM from 'isolated-vm';

let loading: Promise<typeof IsolatedVM> | undefined;

/**
 * Loads isolated-vm on the first script hook, not on import: it is a native addon, and a host that
 * never runs a script hook should not pay for loading it (or fail when it was not built).
 */
export function loadIsolatedVm(): Promise<typeof IsolatedVM> {
  loading ??= import('isolated-vm').then(
    (module) => module.default,
    (error: unknown) => {
      // Let a later hook try again (e.g. after the addon was rebuilt).
      loading = undefined;
      throw error;
    },
  );
  return loading;
}
