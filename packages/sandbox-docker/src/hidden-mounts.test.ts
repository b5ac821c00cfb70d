// What no hook may read — the journal key's folder, the user's secrets — stays out of sight when a
// mount holds it: each hidden path inside a mount, :rw or :ro, is an empty read-only cover in the
// container, and the host's copy is untouched. The same hooks without `hiddenPaths` read them, which
// shows each test can fail.
import { chownSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { freshRunId, testSandbox } from '../test-support/docker-harness.ts';
import { probeDocker, reportDockerProbe } from '../test-support/docker-probe.ts';
import type { DockerSandboxSettings } from './docker-sandbox.ts';

const probe = await probeDocker();
reportDockerProbe(probe, 'hidden-mounts.test.ts');

const SECRETS = {
  key: '.local/state/hookline/journal.key',
  ssh: '.ssh/id_ed25519',
  aws: '.aws/credentials',
  netrc: '.netrc',
} as const;

let home: string;
beforeEach(() => {
  home = realpathSync(mkdtempSync(join(tmpdir(), 'hookline-docker-hidden-')));
  // The container's user is 65534: every secret is its own, so only the cover keeps it unread.
  for (const path of Object.values(SECRETS)) {
    mkdirSync(join(home, path, '..'), { recursive: true });
    writeFileSync(join(home, path), `secret of ${path}\n`, { mode: 0o600 });
  }
  if (process.getuid?.() === 0)
    for (const path of [
      '',
      '.local',
      '.local/state',
      '.local/state/hookline',
      '.ssh',
      '.aws',
      ...Object.values(SECRETS),
    ])
      chownSync(join(home, path), 65534, 65534);
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

const hidden = (): string[] => [
  join(home, '.local/state/hookline'),
  join(home, '.ssh'),
  join(home, '.aws'),
  join(home, '.netrc'),
];
const text = (bytes: Uint8Array): string => new TextDecoder().decode(bytes);
const PEEK = Object.values(SECRETS)
  .map((path) => `cat "/home-mount/${path}" 2>&1; ls -A "/home-mount/${path.split('/')[0]}" 2>&1`)
  .join('; ');

async function peek(settings: DockerSandboxSettings, command = PEEK): Promise<string> {
  const provider = testSandbox(settings);
  const session = await provider.doOpen(freshRunId('hidden'), new AbortController().signal);
  try {
    const result = await session.exec({ command, cwd: '/home-mount' });
    return text(result.stdout);
  } finally {
    await session.dispose();
    await provider.doClose();
  }
}

function expectUntouched(): void {
  for (const path of Object.values(SECRETS)) expect(readFileSync(join(home, path), 'utf8')).toBe(`secret of ${path}\n`);
}

describe.skipIf(!probe.available)('the docker sandbox keeps hidden paths unreadable inside its mounts', () => {
  for (const mode of ['rw', 'ro'] as const) {
    test(`a home folder mounted :${mode} shows none of its secrets`, async () => {
      const exposed = await peek({ mounts: [`${home}:/home-mount:${mode}`] });
      for (const path of Object.values(SECRETS)) expect(exposed).toContain(`secret of ${path}`);
      const seen = await peek(
        { mounts: [`${home}:/home-mount:${mode}`], hiddenPaths: hidden() },
        `${PEEK}; echo x > /home-mount/.ssh/planted 2>&1; echo "planted $?"; mv /home-mount/.ssh /home-mount/moved 2>&1; echo "moved $?"`,
      );
      expect(seen).not.toContain('secret of');
      expect(seen).toMatch(/planted [1-9]/);
      expect(seen).toMatch(/moved [1-9]/);
      expectUntouched();
    });
  }

  test('a mount inside a hidden path is refused', async () => {
    const provider = testSandbox({ mounts: [`${join(home, '.ssh')}:/keys:ro`], hiddenPaths: hidden() });
    await expect(provider.doOpen(freshRunId('inside'), new AbortController().signal)).rejects.toThrow(
      /does not mount .*\/\.ssh: it lies inside .*\/\.ssh, which hooks must not read/,
    );
    await provider.doClose();
  });

  test('a hidden path that appears on the host after the container was made stops the next hook', async () => {
    rmSync(join(home, '.aws'), { recursive: true });
    const provider = testSandbox({ mounts: [`${home}:/home-mount:ro`], hiddenPaths: hidden() });
    const session = await provider.doOpen(freshRunId('late'), new AbortController().signal);
    try {
      expect(text((await session.exec({ command: 'echo first', cwd: '/home-mount' })).stdout)).toBe('first\n');
      mkdirSync(join(home, '.aws'));
      writeFileSync(join(home, '.aws', 'credentials'), 'late secret\n');
      await expect(session.exec({ command: 'cat .aws/credentials', cwd: '/home-mount' })).rejects.toThrow(
        /\.aws appeared after the container of run .* was made, so it is not covered/,
      );
    } finally {
      await session.dispose();
      await provider.doClose();
    }
  });
});
