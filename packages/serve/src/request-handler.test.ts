import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startDaemon, type Daemon } from './daemon.ts';
import { jsonLog } from './json-log.ts';
import type { ServeBackend, ServeRoute } from './serve-backend.ts';
import { servePaths, type ServePaths } from './serve-paths.ts';

// Bad requests to a real daemon over its real socket: each is answered 200 with the backend's
// refusal (agents read anything else as "no opinion"), and no hook runs.

let root: string;
let paths: ServePaths;
let daemon: Daemon;
let ran: number;
let loads: number;
let failLoad: boolean;
const refusals: string[] = [];

const backend: ServeBackend = {
  profileOf: () => '',
  configCandidates: () => [],
  projectConfigFiles: () => [],
  load: async () => {
    loads += 1;
    if (failLoad) throw new Error('the config does not parse');
    return {
      answer: async () => {
        ran += 1;
        return { exitCode: 0, stdout: '{"ran":true}', stderr: '' };
      },
      close: async () => undefined,
    };
  },
  refuse: (_route: ServeRoute, _payload, reason) => {
    refusals.push(reason);
    return { exitCode: 2, stdout: JSON.stringify({ refused: reason }), stderr: '' };
  },
};

beforeEach(async () => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'hookline-serve-')));
  paths = servePaths({ HOME: root, XDG_STATE_HOME: join(root, 'state'), XDG_RUNTIME_DIR: join(root, 'run') });
  ran = 0;
  loads = 0;
  failLoad = false;
  refusals.length = 0;
  daemon = await startDaemon({ backend, paths, log: jsonLog({ write: () => undefined }), version: 'test' });
});

afterEach(async () => {
  await daemon.stop('test over');
  rmSync(root, { recursive: true, force: true });
});

function post(path: string, body: string): Promise<{ status: number; exit: string | undefined; body: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = request({ socketPath: paths.socketFile, method: 'POST', path }, (response) => {
      let text = '';
      response.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          exit: response.headers['hookline-exit-code'] as string,
          body: text,
        }),
      );
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

describe('bad requests', () => {
  it.each([
    ['a body that is not JSON', '{"cwd": '],
    ['a JSON array', '[1, 2]'],
    ['a payload without cwd', '{"tool_name": "Bash"}'],
    ['a relative cwd', '{"cwd": "project"}'],
  ])('%s is refused with status 200 and nothing runs', async (_what, body) => {
    const answer = await post('/hooks/claude/PreToolUse', body);
    expect(answer.status).toBe(200);
    expect(answer.exit).toBe('2');
    expect(JSON.parse(answer.body).refused).toMatch(/no hook ran/);
    expect(ran).toBe(0);
    expect(loads).toBe(0);
  });

  it('a payload larger than the limit is refused, and the daemon keeps answering', async () => {
    const answer = await post('/hooks/claude/PreToolUse', `{"cwd":"${root}","x":"${'x'.repeat(9 * 1024 * 1024)}"}`);
    expect(JSON.parse(answer.body).refused).toMatch(/larger than/);
    expect(ran).toBe(0);
    const next = await post('/hooks/claude/PreToolUse', JSON.stringify({ cwd: root }));
    expect(JSON.parse(next.body)).toEqual({ ran: true });
  });

  it('a config that never loaded is refused with its problem, and loaded once it is fixed', async () => {
    failLoad = true;
    const answer = await post('/hooks/claude/PreToolUse', JSON.stringify({ cwd: root }));
    expect(JSON.parse(answer.body).refused).toContain('the config does not parse');
    expect(ran).toBe(0);
  });

  it('an unknown path is 404 and a GET of a hook path 405', async () => {
    expect((await post('/nothing/here', '{}')).status).toBe(404);
    const got = await new Promise<number>((resolve, reject) => {
      request({ socketPath: paths.socketFile, method: 'GET', path: '/hooks/claude/PreToolUse' }, (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      })
        .on('error', reject)
        .end();
    });
    expect(got).toBe(405);
  });
});
