export { deployPreset } from './deploy-preset.ts';
export { deployPreset as default } from './deploy-preset.ts';
