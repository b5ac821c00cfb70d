// The same rules as the bubblewrap sandbox's, for `mounts`: a mount source is resolved (links
// followed) before it is checked, and what decides what runs outside the sandbox later stays
// read-only inside a writable mount — or is moved aside, failing the hook, when a hook created it.
import {
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { freshRunId, testSandbox } from '../test-support/docker-harness.ts';
import { probeDocker, reportDockerProbe } from '../test-support/docker-probe.ts';
import type { DockerSandboxSettings } from './docker-sandbox.ts';

const probe = await probeDocker();
reportDockerProbe(probe, 'protected-mounts.test.ts');

let work: string;
beforeEach(() => {
  work = realpathSync(mkdtempSync(join(tmpdir(), 'hookline-docker-protected-')));
  giveToHooks(work);
});
afterEach(() => rmSync(work, { recursive: true, force: true }));

// The container's user is 65534: what it should be able to write (but for the protection) is its own.
function giveToHooks(path: string): void {
  if (process.getuid?.() === 0) chownSync(path, 65534, 65534);
}

function make(path: string, content?: string): void {
  const parts = path.split('/');
  for (let depth = 1; depth < parts.length + (content === undefined ? 1 : 0); depth++) {
    mkdirSync(join(work, ...parts.slice(0, depth)), { recursive: true });
    giveToHooks(join(work, ...parts.slice(0, depth)));
  }
  if (content === undefined) return;
  writeFileSync(join(work, path), content);
  giveToHooks(join(work, path));
}

const text = (bytes: Uint8Array): string => new TextDecoder().decode(bytes);

async function withSession<T>(
  settings: DockerSandboxSettings,
  use: (session: Awaited<ReturnType<ReturnType<typeof testSandbox>['doOpen']>>) => Promise<T>,
): Promise<T> {
  const provider = testSandbox(settings);
  const session = await provider.doOpen(freshRunId('protected'), new AbortController().signal);
  try {
    return await use(session);
  } finally {
    await session.dispose();
    await provider.doClose();
  }
}

describe.skipIf(!probe.available)('the docker sandbox keeps protected paths out of reach in writable mounts', () => {
  test('an existing hookline.toml, .git and .claude in a :rw mount are read-only inside', async () => {
    make('hookline.toml', 'original\n');
    make('.git/hooks');
    make('.claude/settings.json', '{}');
    await withSession({ mounts: [`${work}:/workspace:rw`] }, async (session) => {
      const result = await session.exec({
        command: [
          'echo x >> hookline.toml',
          'echo x > .git/hooks/pre-commit',
          'echo x > .claude/settings.json',
          'rm -rf .git',
          'echo ok > allowed.txt',
        ]
          .map((attempt) => `{ ${attempt}; } 2>/dev/null && echo "DONE ${attempt}"`)
          .join('; '),
        cwd: '/workspace',
      });
      expect(text(result.stdout)).toBe('DONE echo ok > allowed.txt\n');
    });
    expect(readFileSync(join(work, 'hookline.toml'), 'utf8')).toBe('original\n');
    expect(readFileSync(join(work, '.claude/settings.json'), 'utf8')).toBe('{}');
    expect(existsSync(join(work, '.git/hooks/pre-commit'))).toBe(false);
    expect(readFileSync(join(work, 'allowed.txt'), 'utf8')).toBe('ok\n');
  });

  test('a hookline.toml or git folder a hook creates is moved aside, and the hook fails naming it', async () => {
    await withSession({ mounts: [`${work}:/workspace:rw`] }, async (session) => {
      await expect(
        session.exec({ command: `printf '[[hooks]]\\nsandbox = false\\n' > hookline.toml`, cwd: '/workspace' }),
      ).rejects.toThrow(
        new RegExp(`${join(work, 'hookline.toml')} was created; it was moved aside to .*hookline-quarantine-`),
      );
      await expect(session.exec({ command: 'mkdir -p .git/hooks', cwd: '/workspace' })).rejects.toThrow(
        /\.git was created/,
      );
      // What was not protected stays as the hook left it, and the next hook of the run runs.
      const next = await session.exec({ command: 'echo fine', cwd: '/workspace' });
      expect(text(next.stdout)).toBe('fine\n');
    });
    expect(existsSync(join(work, 'hookline.toml'))).toBe(false);
    const aside = readdirSync(work).find((name) => name.startsWith('hookline.toml.hookline-quarantine-'));
    expect(readFileSync(join(work, aside!), 'utf8')).toContain('sandbox = false');
  });

  test('paths the host names are protected in :rw mounts; :ro mounts are left as they are', async () => {
    make('state/journal.db', 'journal');
    await withSession(
      { mounts: [`${work}:/workspace:rw`], protectedPaths: [join(work, 'state', 'journal.db')] },
      async (session) => {
        const result = await session.exec({ command: 'echo x >> state/journal.db; echo "exit $?"', cwd: '/workspace' });
        expect(text(result.stdout)).toMatch(/exit [1-9]/);
      },
    );
    expect(readFileSync(join(work, 'state', 'journal.db'), 'utf8')).toBe('journal');
  });

  test('a mount source that links to / or a system folder is refused, naming the resolved path', async () => {
    symlinkSync('/', join(work, 'rootlink'));
    symlinkSync('/etc', join(work, 'etclink'));
    for (const [link, resolved] of [
      ['rootlink', '/'],
      ['etclink', '/etc'],
    ] as const) {
      const provider = testSandbox({ mounts: [`${join(work, link)}:/workspace:rw`] });
      await expect(provider.doOpen(freshRunId('links'), new AbortController().signal)).rejects.toThrow(
        new RegExp(`does not mount ${resolved} \\(.*${link} resolves to it through a link\\)`),
      );
      await provider.doClose();
    }
  });

  test('a writable mount inside a protected folder is refused', async () => {
    make('.git/objects');
    const provider = testSandbox({ mounts: [`${join(work, '.git')}:/workspace:rw`] });
    await expect(provider.doOpen(freshRunId('inside'), new AbortController().signal)).rejects.toThrow(
      /does not mount .*\.git writable at \/workspace: it lies inside .*\.git/,
    );
    await provider.doClose();
  });

  test('a protected path that appears on the host after the container was made stops the next hook', async () => {
    await withSession({ mounts: [`${work}:/workspace:rw`] }, async (session) => {
      expect(text((await session.exec({ command: 'echo first', cwd: '/workspace' })).stdout)).toBe('first\n');
      make('.claude/settings.json', '{}');
      await expect(session.exec({ command: 'echo x > .claude/settings.json', cwd: '/workspace' })).rejects.toThrow(
        /\.claude appeared after the container of run .* was made/,
      );
    });
    expect(readFileSync(join(work, '.claude/settings.json'), 'utf8')).toBe('{}');
  });
});
