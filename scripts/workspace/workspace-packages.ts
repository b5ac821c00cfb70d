import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The fields of a package.json the repository checks read. */
export interface PackageManifest {
  readonly name: string;
  readonly private?: boolean;
  readonly exports?: unknown;
  readonly dependencies?: Readonly<Record<string, string>>;
  readonly devDependencies?: Readonly<Record<string, string>>;
  readonly peerDependencies?: Readonly<Record<string, string>>;
}

/** One package of the workspace: its folder and manifest. */
export interface WorkspacePackage {
  readonly dir: string;
  readonly manifest: PackageManifest;
}

// pnpm-workspace.yaml's globs: every folder of packages/ and examples/, and docs.
const WORKSPACE_GLOBS = ['packages', 'examples'] as const;

/** The workspace's packages under `root`, by name. */
export function workspacePackages(root: string): Map<string, WorkspacePackage> {
  const dirs = [
    ...WORKSPACE_GLOBS.flatMap((parent) =>
      readdirSync(join(root, parent), { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .map((entry) => join(root, parent, entry.name)),
    ),
    join(root, 'docs'),
  ];
  const packages = new Map<string, WorkspacePackage>();
  for (const dir of dirs) {
    const file = join(dir, 'package.json');
    if (!existsSync(file)) continue;
    const manifest = JSON.parse(readFileSync(file, 'utf8')) as PackageManifest;
    packages.set(manifest.name, { dir, manifest });
  }
  return packages;
}
