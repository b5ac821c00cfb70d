import { EXEC_MARKER_VARIABLE } from './process-killer.ts';

/** The variable that marks the two capture processes of a hook the agent started (never the hook's own). */
export const CAPTURE_MARKER_VARIABLE = 'HOOKLINE_CAPTURE_ID';

/** The programs the agent needs, besides `sh`, to start hooks itself; without one, hooks are execs. */
export const SPAWN_TOOLS = ['setsid', 'dd', 'cat', 'base64', 'rm'] as const;

/**
 * Shell functions of the container agent that start a hook inside the container and hand back its
 * output: `hookline_start` (operation `x`) and `hookline_collect` (operation `o`).
 *
 * `hookline_start` writes the hook's stdin to a file (so a hook that never reads it blocks nothing),
 * then forks a wrapper and answers at once. The wrapper evaluates the host's setup line (the working
 * directory in `_xd`, the argv as positional parameters, a function `hookline_env` exporting the
 * hook's variables and its `HOOKLINE_EXEC_ID`), and runs the hook through `setsid` — its own session
 * and process group, as a `docker exec` process has — with stdout and stderr on pipes to two capture
 * processes. Each keeps the first `cap + 1` bytes of its stream in a file on the tmpfs (one byte more
 * than the cap tells the host that output was dropped) and drains the rest, so the hook is never
 * killed for talking. `dd … iflag=count_bytes` writes each piece as it reads it (busybox's `head`
 * buffers), so what a hook wrote is in the file even while a background process holds its pipe.
 *
 * The wrapper reports on the agent's stderr: `hookline KEY x STATUS OOM PIDS` when the hook's main
 * process exits (128 + N for signal N, as Docker reports it; the limit counters read right then),
 * `hookline KEY o 0|1` and `… e 0|1` when a stream's file is complete (1: not empty), and `… x lost`
 * when the wrapper exits (the first `x` report counts, so this one tells only of a wrapper that
 * died: a refused fork). Reports go to stderr so they never interleave with the answers on stdout,
 * which only the agent's loop writes.
 *
 * `hookline_collect` (after the exit, once both streams are complete or 200 ms passed) ends capture
 * processes still held open by a hook's background processes, sends each non-empty file as base64
 * lines after a line `ID o` or `ID e`, answers with the limit counters, then removes the files. A
 * hook whose streams were both complete and empty needs nothing from it: the host has the exit and
 * the counters from the reports, and sends the collection only to remove the files, without waiting.
 *
 * Forks happen only here: the wrapper, its pipeline, `setsid`, two `dd` and `cat`, and `base64`
 * and `rm` when collecting. The hook's helper processes stay in the agent's process group and
 * session, which the kill function never signals as a whole, and do not carry `HOOKLINE_EXEC_ID`;
 * the hook does not carry `HOOKLINE_CAPTURE_ID`.
 */
export const SPAWN_FUNCTIONS = `
hookline_start() {
  set -- $_a
  _xf=$_dir/x.$1
  if { printf '%b' "$_d" >"$_xf.i"; } 2>/dev/null; then
    hookline_spawn "$_xf" "$1" "$2" "$_b" >/dev/null &
    echo "$_id ok"
    jobs >/dev/null 2>&1
  else echo "$_id err cannot write $_xf.i (is /tmp full?)"; fi
}
hookline_spawn() {
  _xf=$1; _xt=$2; _xn=$3; _xd=
  trap 'echo "hookline $_xt x lost" >&2' EXIT
  if ! eval "$4" 2>/dev/null; then echo "hookline $_xt x bad" >&2; return; fi
  if [ -n "$_xd" ] && ! cd "$_xd" 2>/dev/null; then echo "hookline $_xt x nocwd" >&2; return; fi
  if ! command -v "$1" >/dev/null 2>&1; then echo "hookline $_xt x noexec" >&2; return; fi
  ${CAPTURE_MARKER_VARIABLE}=$_xt; export ${CAPTURE_MARKER_VARIABLE}
  ( { unset ${CAPTURE_MARKER_VARIABLE} OLDPWD SHLVL; umask 022; hookline_env; setsid "$@" <"$_xf.i" 2>&4 4>&-; _xs=$?; hookline_counters; echo "hookline $_xt x $_xs $_oom $_pids" >&2; } 4>&1 >&3 3>&- | hookline_capture "$_xf.e" "$_xn" e >/dev/null 3>&- & ) 3>&1 | hookline_capture "$_xf.o" "$_xn" o
}
hookline_capture() {
  dd bs=65536 count="$2" iflag=count_bytes of="$1" 2>/dev/null
  [ $? -lt 128 ] || exit
  # An empty file means dd met the end of the stream: nothing is left to drain.
  if [ -s "$1" ]; then echo "hookline $${CAPTURE_MARKER_VARIABLE} $3 1" >&2; else echo "hookline $${CAPTURE_MARKER_VARIABLE} $3 0" >&2; exit; fi
  exec cat >/dev/null 2>&1
}
hookline_collect() {
  set -- $_a
  _xf=$_dir/x.$1
  if [ "$2" = 1 ]; then
    _xr=0
    while [ $_xr -lt 5 ]; do hookline_kill "${CAPTURE_MARKER_VARIABLE}=$1" KILL; [ "$_n" = 0 ] && break; _xr=$((_xr + 1)); done
  fi
  for _xs in o e; do
    if [ -s "$_xf.$_xs" ]; then echo "$_id $_xs"; base64 "$_xf.$_xs"; fi
  done
  hookline_counters
  echo "$_id ok $_oom $_pids"
  rm -f "$_xf.i" "$_xf.o" "$_xf.e" 2>/dev/null
}
`;

/** A hook as the agent starts it. */
export interface SpawnSetup {
  readonly argv: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly marker: string;
  readonly workingDir: string;
}

const SHELL_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Why the agent cannot start this hook itself, if it cannot: a variable whose name the shell cannot
 * export (`A.B`, `1X`) — Docker's exec can pass those.
 */
export function spawnProblem(setup: Pick<SpawnSetup, 'env'>): string | undefined {
  const odd = Object.keys(setup.env).find((name) => !SHELL_NAME.test(name));
  return odd === undefined ? undefined : `the variable name ${JSON.stringify(odd)} cannot be exported by a shell`;
}

/**
 * The wrapper's setup line: one line of shell, every value single-quoted (a newline inside a value
 * becomes `"$_nl"`, which the agent defines), so the agent evaluates it without any value being
 * interpreted. Values cannot hold NUL (exec(2) refuses them; checked before).
 */
export function spawnSetupLine(setup: SpawnSetup): string {
  const exports = [...Object.entries(setup.env), [EXEC_MARKER_VARIABLE, setup.marker] as const].map(([name, value]) => `export ${name}=${quote(value)};`);
  return `_xd=${quote(setup.workingDir)}; set -- ${setup.argv.map(quote).join(' ')}; hookline_env() { ${exports.join(' ')} }`;
}

function quote(value: string): string {
  return value
    .split('\n')
    .map((line) => `'${line.replaceAll("'", `'\\''`)}'`)
    .join('"$_nl"');
}
