export { bubblewrapSandbox, type BubblewrapSandboxSettings } from './bubblewrap-sandbox.ts';
export { BubblewrapSettingsError } from './bubblewrap-settings-error.ts';
export {
  bubblewrapSettingsSchema,
  bubblewrapSettingsTable,
  type BubblewrapSettingsData,
} from './bubblewrap-settings.ts';
export { BubblewrapUnavailableError } from './bubblewrap-unavailable-error.ts';
export { SANDBOX_UID } from './bwrap-arguments.ts';
export { resolveBubblewrapSettings, type ResolvedBubblewrapSettings } from './resolve-bubblewrap-settings.ts';
