// Failures say what to do: no engine, no image, a cwd or shell that the container does not have.
import { describe, expect, test } from 'vitest';
import { dockerEngine, emitSettled, freshRunId, testSandbox, text } from '../test-support/docker-harness.ts';
import { probeDocker, reportDockerProbe } from '../test-support/docker-probe.ts';
import { dockerSandbox } from './docker-sandbox.ts';
import { DockerExecError } from './docker-exec-error.ts';
import { DockerImageMissingError } from './docker-image-missing-error.ts';
import { DockerSettingsError } from './docker-settings-error.ts';
import { DockerUnavailableError } from './docker-unavailable-error.ts';

const never = new AbortController().signal;

describe('without a reachable engine', () => {
  test('opening a run fails with what to do, naming the address', async () => {
    const provider = dockerSandbox({ dockerHost: 'unix:///nonexistent/docker.sock' });
    const error = await provider.doOpen('run', never).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DockerUnavailableError);
    expect((error as Error).message).toBe(
      'Docker engine not reachable at unix:///nonexistent/docker.sock (no such socket): start Docker, point DOCKER_HOST or [sandbox.docker] docker_host at a running engine, or set [sandbox] provider = "local"',
    );
    await provider.doClose();
  });

  test('invalid settings fail at dockerSandbox(), before any I/O', () => {
    expect(() => dockerSandbox({ memory: 'plenty', pids: 3 })).toThrow(DockerSettingsError);
  });
});

const probe = await probeDocker();
reportDockerProbe(probe, 'failures.test.ts');

describe.skipIf(!probe.available)('failures with a reachable engine', () => {
  test('a missing image is named, with how to get one', async () => {
    const provider = dockerSandbox({ image: 'hookline-test/no-such-image:1' });
    const error = await provider.doOpen(freshRunId(), never).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DockerImageMissingError);
    expect((error as Error).message).toMatch(
      /^image "hookline-test\/no-such-image:1" is not in the Docker engine at unix:\/\/\/\S+: pull it \(`docker pull hookline-test\/no-such-image:1`\), or build one without a registry/,
    );
    await provider.doClose();
  });

  test('a missing mount source is named', async () => {
    const provider = testSandbox({ mounts: ['/nonexistent/hookline-folder:/workspace'] });
    const error = await provider.doOpen(freshRunId(), never).catch((caught: unknown) => caught);
    expect((error as Error).message).toMatch(
      /\/nonexistent\/hookline-folder.*every host folder in \[sandbox\.docker\] mounts must exist/,
    );
    await provider.doClose();
  });

  test('through the engine, a cwd missing in the container makes the hook failed, naming it', async () => {
    const engine = dockerEngine([{ name: 'where', command: 'pwd' }]);
    try {
      const outcome = await emitSettled(engine, freshRunId('cwd'), { cwd: '/no/such/folder' });
      expect(outcome.hooks[0]).toMatchObject({ status: 'failed', decision: { decision: 'block' } });
      expect(outcome.hooks[0]?.error).toMatch(
        /^the working directory "\/no\/such\/folder" does not exist in the container \(image "[^"]+"\): a context cwd must be a path inside the container or inside a folder mounted with \[sandbox.docker\] mounts$/,
      );
    } finally {
      await engine.close();
    }
  });

  test('a cwd or a shell missing in the container is a start failure that names it', async () => {
    const provider = testSandbox();
    const session = await provider.doOpen(freshRunId('cwd'), never);
    try {
      const error = await session.exec({ command: 'pwd', cwd: '/no/such/folder' }).catch((caught: unknown) => caught);
      expect(DockerExecError.isInstance(error) && error.kind).toBe('start');
      expect((error as Error).message).toMatch(
        /^the working directory "\/no\/such\/folder" does not exist in the container/,
      );
      const missingShell = await session.exec({ command: 'true', shell: 'bash' }).catch((caught: unknown) => caught);
      expect((missingShell as Error).message).toMatch(/^cannot start "bash": not found in image/);
      expect(text((await session.exec({ command: 'pwd', cwd: '/tmp' })).stdout)).toBe('/tmp\n');
    } finally {
      await session.dispose();
      await provider.doClose();
    }
  });

  test('a host cwd inside a mounted folder is translated to its path in the container', async () => {
    const provider = testSandbox({ mounts: [`${process.cwd()}:/workspace`] });
    const session = await provider.doOpen(freshRunId('mount'), never);
    try {
      const result = await session.exec({
        command: 'pwd; test -f package.json && echo has-package-json; touch x 2>/dev/null || echo read-only',
        cwd: process.cwd(),
      });
      expect(text(result.stdout)).toBe('/workspace\nhas-package-json\nread-only\n');
      const nested = await session.exec({ command: 'pwd', cwd: `${process.cwd()}/src` });
      expect(text(nested.stdout)).toBe('/workspace/src\n');
    } finally {
      await session.dispose();
      await provider.doClose();
    }
  });
});
