import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import type { SpawnerReport, SpawnerRequest } from './spawner-protocol.ts';

/**
 * The resident spawner's whole program. It is not imported there: the host starts
 * `node -e "(<this function's source>)()"`, so the function must stand alone — Node's built-ins
 * through `process.getBuiltinModule`, nothing from this module's scope — and the spawner loads no
 * module of ours (a smaller process forks faster, which is its reason to exist).
 *
 * Each request is spawned the way `runProcess` spawns in-process (detached: a process group of its
 * own), its pid reported at once, its output forwarded up to the cap and drained beyond it, its stdin
 * fed and closed. The spawner never signals a process: the host ends groups itself. It exits when its
 * channel closes, i.e. with the host, however the host ended; its processes are left as an
 * in-process spawn would leave them.
 */
export function spawnerMain(): void {
  const { spawn } = process.getBuiltinModule('node:child_process');
  const children = new Map<number, ChildProcessWithoutNullStreams>();
  // The start gates held, by request: fd 3 of a gated process (see `gated` in the protocol).
  const gates = new Map<number, Writable>();
  // The channel's backlog is over Node's threshold: streams pause until it is written.
  let paused: Readable[] = [];
  const send = (report: SpawnerReport, stream?: Readable): void => {
    if (process.connected !== true) return;
    const flowing = process.send!(report, undefined, undefined, () => {
      const waiting = paused;
      paused = [];
      for (const each of waiting) each.resume();
    });
    if (!flowing && stream !== undefined) {
      stream.pause();
      paused.push(stream);
    }
  };
  const forward = (id: number, fd: 1 | 2, stream: Readable, limit: number): void => {
    let left = limit;
    stream.on('error', () => undefined);
    stream.on('data', (chunk: Buffer) => {
      // Past the cap the stream is still read, so the process is never slowed or killed for talking.
      if (left <= 0) return;
      const kept = chunk.length > left ? chunk.subarray(0, left) : chunk;
      left -= kept.length;
      send({ type: 'output', id, fd, data: kept.toString('base64') }, stream);
    });
  };
  const start = (request: Extract<SpawnerRequest, { type: 'spawn' }>): void => {
    const { id } = request;
    let child: ChildProcessWithoutNullStreams;
    try {
      child = spawn(request.file, request.args, {
        ...(request.cwd === undefined ? {} : { cwd: request.cwd }),
        env: request.env,
        detached: true,
        stdio: request.gated === true ? ['pipe', 'pipe', 'pipe', 'pipe'] : 'pipe',
      });
    } catch (error) {
      const { code, message } = error as NodeJS.ErrnoException;
      send({ type: 'failed', id, ...(code === undefined ? {} : { code }), message });
      return;
    }
    if (child.pid === undefined) {
      child.once('error', (error: NodeJS.ErrnoException) => {
        send({ type: 'failed', id, ...(error.code === undefined ? {} : { code: error.code }), message: error.message });
      });
      return;
    }
    children.set(id, child);
    if (request.gated === true) {
      const gate = child.stdio[3] as Writable;
      // A gate whose process is gone already (ended by a timeout while it waited) is no error.
      gate.on('error', () => undefined);
      gates.set(id, gate);
    }
    send({ type: 'started', id, pid: child.pid });
    child.on('error', () => undefined);
    forward(id, 1, child.stdout, request.limit);
    forward(id, 2, child.stderr, request.limit);
    // Most processes' pipes are closed by the time their exit is seen: one report then says both,
    // one message less per process on the host's path.
    let closed = false;
    let exitSent = false;
    child.once('exit', (code, signal) => {
      setImmediate(() => {
        exitSent = true;
        send({ type: 'exit', id, code, signal, closed });
      });
    });
    child.once('close', () => {
      closed = true;
      children.delete(id);
      gates.get(id)?.destroy();
      gates.delete(id);
      if (exitSent) send({ type: 'closed', id });
    });
    // A process that exits without reading its stdin breaks the pipe; that EPIPE is not an error.
    child.stdin.on('error', () => undefined);
    if (request.stdin === undefined) child.stdin.end();
    else child.stdin.end(request.stdinBase64 === true ? Buffer.from(request.stdin, 'base64') : request.stdin);
  };
  process.on('message', (request: SpawnerRequest) => {
    if (request.type === 'spawn') start(request);
    else if (request.type === 'gate') {
      const gate = gates.get(request.id);
      gates.delete(request.id);
      if (request.go) gate?.end('\n');
      else gate?.destroy();
    } else {
      // The host stopped waiting for the output (a background process holds the pipes): let go of them.
      const child = children.get(request.id);
      children.delete(request.id);
      child?.stdout.destroy();
      child?.stderr.destroy();
    }
  });
  process.on('disconnect', () => process.exit(0));
}
