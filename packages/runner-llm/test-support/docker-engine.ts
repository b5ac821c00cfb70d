// Whether a Docker engine answers, asked over its API the way dockerode would (DOCKER_HOST, else the
// local socket), and which local image a docker sandbox test can run — nothing is ever pulled.
import { existsSync } from 'node:fs';
import { request } from 'node:http';
import { messageOf } from '@hookline/core';

/** Where the engine listens, from `DOCKER_HOST` (unix:// or tcp://), else `/var/run/docker.sock`. */
function endpoint(): { socketPath: string } | { host: string; port: number } {
  const configured = process.env['DOCKER_HOST'];
  if (configured?.startsWith('tcp://')) {
    const url = new URL(configured.replace(/^tcp:/, 'http:'));
    return { host: url.hostname, port: Number(url.port || 2375) };
  }
  return {
    socketPath: configured?.startsWith('unix://') ? configured.slice('unix://'.length) : '/var/run/docker.sock',
  };
}

/** GET on the engine's API; resolves to the status code, or rejects with why it could not ask. */
function get(path: string): Promise<number> {
  const target = endpoint();
  if ('socketPath' in target && !existsSync(target.socketPath))
    return Promise.reject(new Error(`${target.socketPath} does not exist`));
  return new Promise((resolve, reject) => {
    const asking = request({ ...target, path, method: 'GET', timeout: 3_000 }, (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    asking.on('timeout', () => asking.destroy(new Error('no answer within 3 s')));
    asking.on('error', reject);
    asking.end();
  });
}

/** Whether `GET /_ping` answers 200, and if not, why. */
export async function dockerEngine(): Promise<{ readonly ok: true } | { readonly ok: false; readonly reason: string }> {
  try {
    const status = await get('/_ping');
    return status === 200 ? { ok: true } : { ok: false, reason: `GET /_ping answered ${status}` };
  } catch (error) {
    return { ok: false, reason: messageOf(error) };
  }
}

/** The first of `candidates` that exists in the engine's local image store. */
export async function localImage(candidates: readonly string[]): Promise<string | undefined> {
  for (const image of candidates) {
    if ((await get(`/images/${encodeURIComponent(image)}/json`).catch(() => 0)) === 200) return image;
  }
  return undefined;
}
