// The layers of the workspace, lowest first. A package's own code imports only packages of lower
// layers; its tests may import a package of its own or a higher layer only as a declared test helper
// (see import-rules.ts). Packages not named here (examples/*, docs) are consumers, above every layer.
export const PACKAGE_LAYERS: ReadonlyArray<readonly string[]> = [
  // The spec: event catalogs, config, engine, plugin interfaces. Imports no other package.
  ['@hookline/core'],
  // The process toolkit (process groups, the local sandbox) that sandboxes, journals and runner-llm build on.
  ['@hookline/runner-command'],
  // Plugins: each stands alone on core (and runner-command).
  [
    '@hookline/runner-http',
    '@hookline/runner-llm',
    '@hookline/runner-script',
    '@hookline/sandbox-bubblewrap',
    '@hookline/sandbox-docker',
    '@hookline/journal-sqlite',
    '@hookline/journal-postgres',
    '@hookline/otel',
  ],
  // The resident engine: servers, reload and trust around the backend the command line hands it.
  ['@hookline/serve'],
  // The command line, which loads the plugins a config needs.
  ['@hookline/cli'],
];

/** The layer of `name`: its index above, or one above the top for a consumer (an example, the docs). */
export function layerOf(name: string): number {
  const index = PACKAGE_LAYERS.findIndex((layer) => layer.includes(name));
  return index < 0 ? PACKAGE_LAYERS.length : index;
}
