// Writes the CLI's runnable build into dist/. Node's ES module loader spends more of a short command's
// start on finding, reading and linking modules than on running them, so the build is a few files
// instead of ≈ 160 modules:
//   bin.js             what bin/hookline.js imports: checks Node's version, turns the compile cache on
//                      (before the big files below are compiled), then imports main.js
//   main.js            the rest of the CLI; it imports core from ./core.js
//   core.js            @hookline/core with the libraries it uses (smol-toml, re2js, and of valibot and
//                      @valibot/to-json-schema only the functions it calls: a fraction of the packages)
//   start-tracing.js   OpenTelemetry export: only with an OTLP endpoint, and it imports the SDK
//   runner-command.js  @hookline/runner-command (a dependency of the CLI), which every command hook
//                      and the local sandbox load: one file instead of its ≈ 20 modules (with the few
//                      valibot functions its keys use)
//   build-id           a hash of the files above: part of the key of the script host (runner-script's,
//                      which loads core.js too), so a host started by another build never serves this one
// Everything else the CLI depends on is imported from the installed packages at run time: the other
// runner packages (which import the installed valibot: valibot schemas are plain objects, so a
// runner's schema and core's copy of valibot work together), OpenTelemetry and the journals.
// Node's built-in modules are not imported but taken with process.getBuiltinModule (see below).
// `tsc` only typechecks.
//
//   node scripts/bundle.ts        (what `pnpm -F @hookline/cli build` runs)
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';

const root = new URL('..', import.meta.url);
const path = (relative: string): string => fileURLToPath(new URL(relative, root));
const manifest = JSON.parse(readFileSync(path('package.json'), 'utf8')) as {
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
};
const BUILT_IN = new Set(['@hookline/core', 'smol-toml', 're2js', 'valibot', '@valibot/to-json-schema']);
const external = [...Object.keys(manifest.dependencies ?? {}), ...Object.keys(manifest.peerDependencies ?? {})].filter(
  (name) => !BUILT_IN.has(name),
);

/** Source modules the CLI imports lazily and that get a file of their own, by output name. */
const SEPARATE: Readonly<Record<string, string>> = {
  main: path('src/main.ts'),
  'start-tracing': path('src/telemetry/start-tracing.ts'),
};
/** The entry each of them is built from, when not the module itself. */
const ENTRY: Readonly<Record<string, string>> = { main: path('src/bundled-main.ts') };

// One file per entry and no shared chunks: a shared chunk is one more module to load, and esbuild
// splits the lazily imported commands into dozens. Without splitting, a lazy `import()` of a source
// module is inlined, so the few that must stay lazy (SEPARATE) are imported as the files of their own.
/** First-party packages built into files of their own, by package; load-first-party.ts imports these. */
const BUILT_IN_PACKAGES: Readonly<Record<string, string>> = { '@hookline/runner-command': './runner-command.js' };

const linkSeparately: Plugin = {
  name: 'hookline-link-separately',
  setup(builder) {
    builder.onResolve({ filter: /^@hookline\/core(?:\/plugin)?$/ }, () => ({ path: './core.js', external: true }));
    builder.onResolve({ filter: /^\./ }, (args) => {
      if (args.kind !== 'dynamic-import') return undefined;
      const target = fileURLToPath(new URL(args.path, `file://${args.resolveDir}/`));
      const name = Object.keys(SEPARATE).find((key) => SEPARATE[key] === target);
      return name === undefined ? undefined : { path: `./${name}.js`, external: true };
    });
  },
};

/**
 * A built-in module's exports as a module of the bundle: `process.getBuiltinModule` instead of an
 * `import` of `node:…`. Node's ES module wrapper of a built-in reads every one of its exports when
 * it is imported, and some are getters that load more of Node (`fs.promises`, `fs.ReadStream`:
 * streams, readline); in the bundle, a module the command does not reach is not even evaluated, and
 * esbuild keeps only the exports something imports. `oldNode`: the executable's first lines, which
 * must run on a Node too old for the CLI (to say so), import it when getBuiltinModule is missing.
 */
function builtinModuleSource(name: string, oldNode: boolean): string {
  const builtin = process.getBuiltinModule(name) as Record<string, unknown>;
  const exported = Object.keys(builtin).filter((key) => /^[A-Za-z_$][\w$]*$/.test(key) && key !== 'default');
  const take = `process.getBuiltinModule(${JSON.stringify(name)})`;
  return [
    `const builtin = ${oldNode ? `process.getBuiltinModule === undefined ? (await import(${JSON.stringify(name)})).default : ${take}` : take};`,
    'const read = (key) => builtin[key];',
    'export default builtin;',
    ...exported.map(
      (key, index) =>
        `const export${index} = /* @__PURE__ */ read(${JSON.stringify(key)});\nexport { export${index} as ${key} };`,
    ),
  ].join('\n');
}

const BUILTINS = new Set(builtinModules);
/** Built-in modules through {@link builtinModuleSource}. */
function takeBuiltins(oldNode: boolean): Plugin {
  return {
    name: 'hookline-builtins',
    setup(builder) {
      builder.onResolve({ filter: /^(node:)?[a-z0-9_/]+$/ }, (args) => {
        const bare = args.path.replace(/^node:/, '');
        if (args.kind === 'dynamic-import' && args.importer.startsWith('node:'))
          return { path: args.path, external: true };
        return BUILTINS.has(bare) ? { path: `node:${bare}`, namespace: 'builtin' } : undefined;
      });
      builder.onLoad({ filter: /.*/, namespace: 'builtin' }, (args) => ({
        contents: builtinModuleSource(args.path, oldNode),
        loader: 'js',
      }));
    },
  };
}

const common = {
  outdir: path('dist'),
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node22',
  external,
  // Less text for Node to read, hash and compile at every start (≈ 10 % of `emit`'s CPU time here).
  // Names stay as they are; a stack trace maps back to src/ with `node --enable-source-maps`.
  minifyWhitespace: true,
  minifySyntax: true,
  sourcemap: 'linked',
  sourcesContent: false,
  logLevel: 'warning',
} as const;

rmSync(path('dist'), { recursive: true, force: true });
await build({ ...common, entryPoints: { core: path('src/bundled-core.ts') } });
// Every file sits directly in dist/: cli-manifest.ts finds package.json at `../package.json`.
const entryPoints = Object.fromEntries(Object.entries(SEPARATE).map(([name, source]) => [name, ENTRY[name] ?? source]));
const packageEntries = Object.fromEntries(
  Object.entries(BUILT_IN_PACKAGES).map(([name, file]) => [
    file.replace(/^\.\/|\.js$/g, ''),
    fileURLToPath(import.meta.resolve(name)),
  ]),
);
// The executable is built apart: its first lines check Node's version, so they must load on an old Node.
await build({ ...common, entryPoints: { bin: path('src/bin.ts') }, plugins: [takeBuiltins(true), linkSeparately] });
await build({
  ...common,
  entryPoints: { ...entryPoints, ...packageEntries },
  define: { HOOKLINE_BUILT_IN_PACKAGES: JSON.stringify(BUILT_IN_PACKAGES) },
  plugins: [takeBuiltins(false), linkSeparately],
});

const hash = createHash('sha256');
for (const file of readdirSync(path('dist'))
  .filter((name) => name.endsWith('.js'))
  .sort())
  hash.update(file).update(readFileSync(path(`dist/${file}`)));
writeFileSync(path('dist/build-id'), `${hash.digest('hex')}\n`);
