// The bubblewrap sandbox wired into the CLI, tried the way a hostile hook would: every escape the
// local sandbox allows, each refused inside bubblewrap — and, where it shows the test can fail, the
// same attempt succeeding under `local`. Without a working bwrap the tests skip locally and fail
// under CI=true or HOOKLINE_REQUIRE_BUBBLEWRAP=1.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { finished, makeScratch, runCli, startCli, type Scratch } from '../../test-support/run-cli.ts';

const required = process.env['CI'] === 'true' || process.env['HOOKLINE_REQUIRE_BUBBLEWRAP'] === '1';
const probe = spawnSync('bwrap', ['--unshare-all', '--die-with-parent', '--ro-bind', '/', '/', '--', 'true'], {
  encoding: 'utf8',
});
const problem =
  probe.error !== undefined
    ? `bwrap cannot be started (${probe.error.message})`
    : probe.status !== 0
      ? `bwrap cannot make a sandbox: ${probe.stderr.trim()}`
      : undefined;
if (problem !== undefined) {
  if (required)
    throw new Error(
      `${problem}, and CI=true / HOOKLINE_REQUIRE_BUBBLEWRAP=1 require it: install Debian's bubblewrap package`,
    );
  console.warn(`skipping the CLI's bubblewrap tests: ${problem}`);
}

interface Outcome {
  readonly decision: string;
  readonly reason?: string;
  readonly hooks: ReadonlyArray<{
    readonly status: string;
    readonly sandbox?: string;
    readonly error?: string;
    readonly warnings?: readonly string[];
    readonly exit_code?: number;
  }>;
}

let scratch: Scratch;
let work: string;
beforeEach(() => {
  scratch = makeScratch();
  // The hooks' working directory; the scratch folder around it is "the rest of the host".
  work = join(scratch.path, 'work');
  mkdirSync(work);
  // Run as root, hookline starts bwrap as nobody: the hooks' folder is given to it, as a user would.
  if (process.getuid?.() === 0) chownSync(work, 65534, 65534);
});
afterEach(() => scratch.cleanup());

/** Writes work/hookline.toml and emits stage_start from work/, with `env` added to the CLI's environment. */
async function emit(config: string, env: Record<string, string> = {}): Promise<Outcome> {
  writeFileSync(join(work, 'hookline.toml'), config);
  const result = await runCli(['emit', 'stage_start', '--json'], { cwd: work, env });
  if (result.stdout === '') throw new Error(`no outcome (exit ${result.code}): ${result.stderr}`);
  return JSON.parse(result.stdout) as Outcome;
}

const sandboxed = (provider: string, settings = '') =>
  `[sandbox]\nprovider = "${provider}"\n${settings === '' ? '' : `[sandbox.${provider}]\n${settings}\n`}\n`;
const hook = (command: string, extra = '') =>
  `[[hooks]]\nevent = "stage_start"\ncommand = '''${command}'''\n${extra}\n`;
const read = (name: string): string => readFileSync(join(work, name), 'utf8');
const running = (pattern: string): string => spawnSync('pgrep', ['-f', pattern], { encoding: 'utf8' }).stdout.trim();

describe.skipIf(problem !== undefined)('hookline with [sandbox] provider = "bubblewrap"', () => {
  test('no host secret reaches the hook: not its env, not /proc/1/environ, not /proc/$PPID/environ', async () => {
    const secret = `planted-${randomBytes(6).toString('hex')}`;
    const look = hook(
      `{ env; echo; tr '\\0' '\\n' < /proc/1/environ; echo; tr '\\0' '\\n' < /proc/$PPID/environ; } > seen.txt 2>&1`,
    );
    const outcome = await emit(sandboxed('bubblewrap') + look, {
      HOOKLINE_TEST_SECRET: secret,
      AWS_SECRET_ACCESS_KEY: secret,
    });
    expect(outcome.hooks[0]).toMatchObject({ status: 'ok', sandbox: 'bubblewrap' });
    expect(read('seen.txt')).toMatch(/^ARC_EVENT=stage_start$/m);
    expect(read('seen.txt')).not.toContain(secret);
    // The same hook under local reads the secret from its parent, the hookline process.
    const local = await emit(sandboxed('local') + look, { HOOKLINE_TEST_SECRET: secret });
    expect(local.hooks[0]).toMatchObject({ status: 'ok', sandbox: 'local' });
    expect(read('seen.txt')).toContain(`HOOKLINE_TEST_SECRET=${secret}`);
  });

  test('writes land in the working directory only: not beside it, not in system directories', async () => {
    const outside = join(scratch.path, 'outside.txt');
    const outcome = await emit(
      sandboxed('bubblewrap') +
        hook(
          `for target in /usr/hookline-probe /etc/hookline-probe /opt/hookline-probe /var/tmp/hookline-probe; do touch "$target" 2>&1; done > refused.txt; ` +
            // The scratch folder lies under /tmp, which is private inside: the write lands there, not on the host.
            `touch '${outside}'; echo inside > inside.txt; id -u > uid.txt`,
        ),
    );
    expect(outcome.hooks[0]?.status).toBe('ok');
    expect(read('refused.txt')).toMatch(/^touch: cannot touch '\/usr\/hookline-probe': Read-only file system$/m);
    expect(read('refused.txt')).toMatch(/^touch: cannot touch '\/etc\/hookline-probe': Read-only file system$/m);
    expect(read('refused.txt')).toMatch(
      /^touch: cannot touch '\/var\/tmp\/hookline-probe': No such file or directory$/m,
    );
    expect(read('inside.txt')).toBe('inside\n');
    expect(read('uid.txt')).toBe('65534\n');
    for (const path of [
      outside,
      '/usr/hookline-probe',
      '/etc/hookline-probe',
      '/opt/hookline-probe',
      '/var/tmp/hookline-probe',
    ])
      expect(existsSync(path)).toBe(false);
  });

  test('a loopback server on the host is out of reach unless network = "host"', async () => {
    let connections = 0;
    const server: Server = createServer((socket) => {
      connections++;
      socket.end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    const dial = hook(`bash -c 'echo hi > /dev/tcp/127.0.0.1/${port}' 2> dial.txt && echo connected >> dial.txt`);
    try {
      const outcome = await emit(sandboxed('bubblewrap') + dial);
      expect(outcome.hooks[0]?.status).toBe('ok');
      expect(read('dial.txt')).toMatch(/Connection refused/);
      expect(connections).toBe(0);
      const opened = await emit(sandboxed('bubblewrap', 'network = "host"') + dial);
      expect(opened.hooks[0]?.status).toBe('ok');
      expect(read('dial.txt')).toContain('connected');
      expect(connections).toBe(1);
    } finally {
      server.close();
    }
  });

  test('a setsid double-forked child does not outlive the timeout', async () => {
    const marker = `sleep 41.${randomBytes(2).readUInt16BE()}`;
    const outcome = await emit(
      sandboxed('bubblewrap') +
        hook(`setsid sh -c '(${marker} &) ; exit 0'; echo started > started.txt; sleep 300`, 'timeout_ms = 1500'),
    );
    expect(outcome.hooks[0]?.status).toBe('timed_out');
    expect(read('started.txt')).toBe('started\n');
    expect(running(marker)).toBe('');
  });

  test('a fork bomb is contained: nothing of it survives, and the report names the process limit', async () => {
    const marker = `sleep 42.${randomBytes(2).readUInt16BE()}`;
    // Bounded even where nothing limits it: at most 2^7 shells, each with one sleep. The hook leaves it
    // running in the background and exits, which ends the whole pid namespace.
    const bomb = `b() { if [ "$1" -gt 0 ]; then b $(($1 - 1)) & b $(($1 - 1)) & fi; ${marker}; }; b 6 & sleep 2; echo "$(ls /proc | grep -c '^[0-9]') processes" > bomb.txt`;
    const outcome = await emit(sandboxed('bubblewrap', 'pids = 32') + hook(bomb));
    const report = outcome.hooks[0]!;
    expect(report.status).toBe('ok');
    expect(read('bomb.txt')).toMatch(/^\d+ processes\n$/);
    // With delegated cgroup v2 the limit stops the forks and is named; without, the missing limit is.
    expect(report.warnings?.join('\n')).toMatch(/limit of 32 processes \(pids\)|cannot limit pids and memory/);
    expect(running(marker)).toBe('');
  });

  test('the host home and /root are not there: the hook gets an empty private home', async () => {
    const home = join(scratch.path, 'home');
    mkdirSync(home);
    writeFileSync(join(home, 'secret.txt'), 'host home secret');
    const outcome = await emit(
      sandboxed('bubblewrap') +
        hook(`{ cat "$HOME/secret.txt"; ls -A "$HOME"; ls -A /root; } > home.txt 2>&1; echo "$HOME" >> home.txt`),
      { HOME: home },
    );
    expect(outcome.hooks[0]?.status).toBe('ok');
    const seen = read('home.txt');
    expect(seen).not.toContain('host home secret');
    expect(seen).toMatch(/secret\.txt: No such file or directory/);
    expect(seen).toMatch(/\/root.*No such file or directory/);
    expect(seen.trim().endsWith(home)).toBe(true);
  });

  test("a hook run from the home folder cannot read the journal key or the user's SSH key there", async () => {
    // HOME is the hooks' working directory, so the key lies inside a writable bind (XDG_STATE_HOME unset: ~/.local/state).
    const key = join(work, '.local', 'state', 'hookline', 'journal.key');
    const secrets = {
      [key]: `${randomBytes(32).toString('hex')}\n`,
      [join(work, '.ssh', 'id_ed25519')]: 'ssh private key\n',
      [join(work, '.local', 'state', 'other.txt')]: 'not a secret\n',
    };
    for (const [path, content] of Object.entries(secrets)) {
      mkdirSync(join(path, '..'), { recursive: true, mode: 0o700 });
      writeFileSync(path, content, { mode: 0o600 });
    }
    // As root, hooks are nobody on the host: what is theirs, only the cover keeps unread.
    if (process.getuid?.() === 0)
      for (const path of ['.local', '.local/state', '.local/state/hookline', '.ssh', ...Object.keys(secrets)])
        chownSync(path.startsWith('/') ? path : join(work, path), 65534, 65534);
    const look = hook(
      `{ cat .local/state/hookline/journal.key; echo "key $?"; cat "$HOME/.ssh/id_ed25519"; echo "ssh $?"; cat .local/state/other.txt; } > seen.txt 2>&1`,
    );
    const outcome = await emit(sandboxed('bubblewrap') + look, { HOME: work, XDG_STATE_HOME: '' });
    expect(outcome.hooks[0]).toMatchObject({ status: 'ok', sandbox: 'bubblewrap' });
    const seen = read('seen.txt');
    expect(seen).toMatch(/journal\.key: Permission denied\nkey 1\n/);
    expect(seen).toMatch(/id_ed25519: Permission denied\nssh 1\n/);
    expect(seen).not.toContain(secrets[key]!.trim());
    expect(seen).not.toContain('ssh private key');
    // What is not hidden beside it reads as usual: the hook could read the key but for the cover.
    expect(seen).toContain('not a secret');
    for (const [path, content] of Object.entries(secrets)) expect(readFileSync(path, 'utf8')).toBe(content);
  });

  test('without bwrap a sandboxed hook fails under its on_error, naming the package — never runs unsandboxed', async () => {
    const outcome = await emit(
      sandboxed('bubblewrap', `bwrap = "${join(scratch.path, 'no-bwrap')}"`) + hook('echo ran > ran.txt'),
    );
    expect(outcome.decision).toBe('block');
    expect(outcome.hooks[0]?.status).toBe('failed');
    expect(outcome.hooks[0]?.error).toMatch(
      /@hookline\/sandbox-bubblewrap: .*no-bwrap" was not found.*apt-get install bubblewrap/,
    );
    expect(existsSync(join(work, 'ran.txt'))).toBe(false);
  });

  test('a kernel without user namespaces is named with the sysctls to check', async () => {
    // A stand-in bwrap that answers as bwrap does where unprivileged user namespaces are off.
    const fake = join(scratch.path, 'bwrap');
    // As root, bwrap is started as nobody, who must be able to reach it.
    chmodSync(scratch.path, 0o755);
    writeFileSync(
      fake,
      "#!/bin/sh\necho 'bwrap: No permissions to create new namespace, likely because the kernel does not allow non-privileged user namespaces.' >&2\nexit 1\n",
      { mode: 0o755 },
    );
    const outcome = await emit(
      sandboxed('bubblewrap', `bwrap = "${fake}"`) + hook('echo ran > ran.txt', 'on_error = "proceed"'),
    );
    expect(outcome.decision).toBe('proceed');
    expect(outcome.hooks[0]?.status).toBe('failed');
    expect(outcome.hooks[0]?.error).toMatch(/kernel\.unprivileged_userns_clone.*user\.max_user_namespaces/);
    expect(existsSync(join(work, 'ran.txt'))).toBe(false);
  });

  test('the task and agent presets run their command hooks inside it when they say sandbox = true', async () => {
    // Both presets default to sandbox = false (their sources run hooks as the host's own processes).
    writeFileSync(
      join(work, 'hookline.toml'),
      `preset = "task"\n${sandboxed('bubblewrap')}[[hooks]]\nevent = "after_merge"\nsandbox = true\ncommand = "hostname > task.txt; id -u >> task.txt"\n`,
    );
    const task = await runCli(['emit', 'after_merge', '--set', 'task=t-1'], { cwd: work });
    expect(task.code, task.stderr).toBe(0);
    expect(read('task.txt')).toBe('hookline-sandbox\n65534\n');
    writeFileSync(
      join(work, 'hookline.toml'),
      `preset = "agent"\n${sandboxed('bubblewrap')}[[hooks]]\nevent = "pre_tool_use"\nsandbox = true\n[hooks.action]\ntype = "shell"\ncommand = "hostname > agent.txt"\n`,
    );
    const agent = await runCli(['emit', 'pre_tool_use', '--set', 'tool_name=Bash', '--json'], { cwd: work });
    expect(agent.code, agent.stderr).toBe(0);
    expect(JSON.parse(agent.stdout).hooks[0]).toMatchObject({ status: 'ok', sandbox: 'bubblewrap' });
    expect(read('agent.txt')).toBe('hookline-sandbox\n');
  });

  test('bad [sandbox.bubblewrap] settings are config errors with the file and line, with suggestions', async () => {
    writeFileSync(
      join(work, 'hookline.toml'),
      `[[hooks]]\nevent = "stage_start"\ncommand = "true"\n\n[sandbox]\nprovider = "bubblewrap"\n[sandbox.bubblewrap]\nnetwork = "bridge"\nwriteable = ["x"]\n`,
    );
    const result = await runCli(['validate'], { cwd: work });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/hookline\.toml:8: \[sandbox\.bubblewrap\] `network` must be "none"/);
    expect(result.stderr).toMatch(
      /hookline\.toml:9: unknown setting `writeable` in \[sandbox\.bubblewrap\] — did you mean `writable`\?/,
    );
  });

  test('explain does not load it, and hookline schema describes its settings', async () => {
    writeFileSync(join(work, 'hookline.toml'), `${sandboxed('bubblewrap')}${hook('true')}`);
    const explained = await runCli(['explain', 'stage_start'], { cwd: work });
    expect(explained.code, explained.stderr).toBe(0);
    const schema = await runCli(['schema'], { cwd: work });
    const settings = JSON.parse(schema.stdout).properties.sandbox.properties.bubblewrap;
    expect(settings.properties.network.enum).toEqual(['none', 'host']);
    expect(Object.keys(settings.properties)).toEqual(
      expect.arrayContaining(['writable', 'readable', 'pids', 'memory', 'kill_grace_ms', 'max_output_bytes']),
    );
  });

  test('break 1: a sandboxed hook cannot add a sandbox = false hook to hookline.toml for the next emit', async () => {
    const pwned = join(scratch.path, 'pwned-by-host-hook');
    const evil = `\n[[hooks]]\nevent = "stage_start"\nsandbox = false\ncommand = "touch ${pwned}"\n`;
    const config =
      sandboxed('bubblewrap') +
      hook(
        `{ printf '%s' '${evil}' >> hookline.toml; } 2> append.txt; echo "exit $?" >> append.txt`,
        'on_error = "proceed"',
      );
    writeFileSync(join(work, 'hookline.toml'), config);
    // The hook's own user may write the file (as when Hookline runs as that user): only the sandbox stops it.
    if (process.getuid?.() === 0) chownSync(join(work, 'hookline.toml'), 65534, 65534);
    const first = JSON.parse((await runCli(['emit', 'stage_start', '--json'], { cwd: work })).stdout) as Outcome;
    expect(first.hooks[0]?.sandbox).toBe('bubblewrap');
    expect(read('append.txt')).toMatch(/Read-only file system[\s\S]*exit [1-9]/);
    expect(read('hookline.toml')).toBe(config);
    const next = await runCli(['emit', 'stage_start', '--json'], { cwd: work });
    expect(JSON.parse(next.stdout).hooks).toHaveLength(1);
    expect(existsSync(pwned)).toBe(false);
  });

  test('break 1: a config layer the CLI would discover, made by a sandboxed hook, is moved aside and the hook fails', async () => {
    const pwned = join(scratch.path, 'pwned-by-user-layer');
    // XDG_CONFIG_HOME is work/.xdg (see runCli): the user layer lies inside the hook's writable folder.
    const layer = `mkdir -p .xdg/hookline && printf '[[hooks]]\\nevent = "stage_start"\\nsandbox = false\\ncommand = "touch ${pwned}"\\n' > .xdg/hookline/hookline.toml`;
    const outcome = await emit(sandboxed('bubblewrap') + hook(layer, 'on_error = "proceed"'));
    expect(outcome.hooks[0]).toMatchObject({ status: 'failed', sandbox: 'bubblewrap' });
    expect(outcome.hooks[0]?.error).toMatch(
      /\.xdg\/hookline\/hookline\.toml was created; it was moved aside to .*\.hookline-quarantine-.*inspect it/,
    );
    expect(existsSync(join(work, '.xdg/hookline/hookline.toml'))).toBe(false);
    expect(
      readdirSync(join(work, '.xdg/hookline')).some((name) => name.startsWith('hookline.toml.hookline-quarantine-')),
    ).toBe(true);
    const next = await runCli(['emit', 'stage_start', '--json'], { cwd: work });
    expect(next.stdout, next.stderr).not.toBe('');
    expect(existsSync(pwned)).toBe(false);
  });

  test('break 1: an explicit --config file, the journal, .git and .claude stay read-only to a sandboxed hook', async () => {
    mkdirSync(join(work, 'conf'));
    mkdirSync(join(work, '.git', 'hooks'), { recursive: true });
    mkdirSync(join(work, '.claude'));
    writeFileSync(join(work, '.claude', 'settings.json'), '{}');
    for (const path of ['conf', '.git', '.git/hooks', '.claude', '.claude/settings.json'])
      if (process.getuid?.() === 0) chownSync(join(work, path), 65534, 65534);
    const attempts = [
      'echo x >> conf/hookline.toml',
      'echo x > .git/hooks/pre-commit',
      'echo x > .claude/settings.json',
      'mv .git git-moved',
      'echo x >> .hookline/journal.db',
    ];
    writeFileSync(
      join(work, 'conf', 'hookline.toml'),
      sandboxed('bubblewrap') +
        hook(
          `${attempts.map((attempt) => `{ ${attempt}; } 2>/dev/null && echo "DONE ${attempt}"`).join('; ')}; true > attempts.txt`,
        ),
    );
    if (process.getuid?.() === 0) chownSync(join(work, 'conf', 'hookline.toml'), 65534, 65534);
    const result = await runCli(['emit', 'stage_start', '--json', '--config', 'conf/hookline.toml'], { cwd: work });
    expect(JSON.parse(result.stdout).hooks[0]).toMatchObject({ status: 'ok', sandbox: 'bubblewrap' });
    expect(read('attempts.txt')).toBe('');
    expect(readFileSync(join(work, 'conf', 'hookline.toml'), 'utf8')).not.toMatch(/^x$/m);
    expect(readFileSync(join(work, '.claude', 'settings.json'), 'utf8')).toBe('{}');
  });

  test('break 2: a cwd that links to / is refused naming /; nothing is written there', async () => {
    const marker = `hookline-rootlink-${randomBytes(4).toString('hex')}`;
    symlinkSync('/', join(work, 'rootlink'));
    writeFileSync(
      join(work, 'hookline.toml'),
      sandboxed('bubblewrap') + hook(`touch ${marker}; cat /etc/shadow > ${marker}`),
    );
    const result = await runCli(['emit', 'stage_start', '--json', '--set', `cwd=${join(work, 'rootlink')}`], {
      cwd: work,
    });
    const outcome = JSON.parse(result.stdout) as Outcome;
    expect(outcome.hooks[0]?.status).toBe('failed');
    expect(outcome.hooks[0]?.error).toMatch(
      /does not bind \/ \(.*rootlink resolves to it through a link\) as the working directory/,
    );
    expect(existsSync(join('/', marker))).toBe(false);
  });

  test('break 2: a link planted by one hook is refused as the cwd of the next event', async () => {
    const marker = `hookline-planted-${randomBytes(4).toString('hex')}`;
    const planted = await emit(sandboxed('bubblewrap') + hook(`ln -s /etc planted; touch ${marker}`));
    expect(planted.hooks[0]?.status).toBe('ok');
    expect(existsSync(join(work, marker))).toBe(true);
    const result = await runCli(['emit', 'stage_start', '--json', '--set', `cwd=${join(work, 'planted')}`], {
      cwd: work,
    });
    const outcome = JSON.parse(result.stdout) as Outcome;
    expect(outcome.hooks[0]?.error).toMatch(/does not bind \/etc \(.*planted resolves to it through a link\)/);
    expect(existsSync(join('/etc', marker))).toBe(false);
  });

  test('break 1: while a sandboxed hook runs, another hookline does not load a hookline.toml it may have written', async () => {
    const pwned = join(scratch.path, 'pwned-meanwhile');
    mkdirSync(join(work, 'conf'));
    // The project's config lives elsewhere (--config): ./hookline.toml does not exist when the hook starts.
    writeFileSync(
      join(work, 'conf', 'hookline.toml'),
      sandboxed('bubblewrap') +
        hook(
          `printf '[[hooks]]\\nevent = "stage_start"\\nsandbox = false\\ncommand = "touch ${pwned}"\\n' > hookline.toml; while [ ! -e release ]; do sleep 0.05; done`,
          'on_error = "proceed"',
        ),
    );
    const first = startCli(['emit', 'stage_start', '--json', '--config', 'conf/hookline.toml'], { cwd: work });
    first.stdin!.end();
    let exited = false;
    const firstDone = finished(first).finally(() => (exited = true));
    while (!existsSync(join(work, 'hookline.toml')) && !exited) await new Promise((resolve) => setTimeout(resolve, 10));
    if (exited) throw new Error(`the sandboxed hook ended before writing hookline.toml: ${(await firstDone).stdout}`);
    const meanwhile = await runCli(['emit', 'stage_start', '--json'], { cwd: work });
    writeFileSync(join(work, 'release'), '');
    expect(meanwhile.code).toBe(1);
    expect(meanwhile.stderr).toMatch(
      /hookline\.toml did not exist when a sandboxed hook of Hookline process \d+ started.*does not load it while that hook runs/s,
    );
    expect(existsSync(pwned)).toBe(false);
    const outcome = JSON.parse((await firstDone).stdout) as Outcome;
    expect(outcome.hooks[0]?.status).toBe('failed');
    expect(outcome.hooks[0]?.error).toMatch(/hookline\.toml was created; it was moved aside/);
    expect(existsSync(join(work, 'hookline.toml'))).toBe(false);
    // Once the hook has ended, nothing is announced any more: a new config loads as usual.
    writeFileSync(join(work, 'hookline.toml'), hook('true', 'sandbox = false'));
    const after = await runCli(['emit', 'stage_start', '--json'], { cwd: work });
    expect(after.code, after.stderr).toBe(0);
    expect(existsSync(pwned)).toBe(false);
  });
});
