import { EXEC_MARKER_VARIABLE } from './process-killer.ts';

/** The variable that marks the two capture processes of a hook the agent started (never the hook's own). */
export const CAPTURE_MARKER_VARIABLE = 'HOOKLINE_CAPTURE_ID';

/** The programs the agent needs, besides `sh`, to start hooks itself; without one, hooks are execs. */
export const SPAWN_TOOLS = ['setsid', 'cat', 'base64'] as const;

/**
 * Shell functions of the container agent that start a hook inside the container and hand back its
 * output: `hookline_start` (operation `x`) and `hookline_collect` (operation `o`).
 *
 * `hookline_start` forks, in the background, a pipeline: `printf` feeding the hook's stdin into a
 * pipe (at most 64 KiB, which a pipe holds, so a hook that never reads it blocks nothing), a wrapper,
 * and the stdout capture; then it answers at once. The wrapper evaluates the host's setup line (the
 * working directory in `_xd`, the argv as positional parameters, a function `hookline_env` exporting
 * the hook's variables and its `HOOKLINE_EXEC_ID`), and starts the hook through `setsid` — its own
 * session and process group, as a `docker exec` process has — with stderr on a pipe to a second
 * capture, and exits. Each capture keeps at least the first `cap + 1` bytes of its stream (one byte
 * more than the cap tells the host that output was dropped; at most 511 more) in a file of the
 * hook's slot on the tmpfs, and drains the rest, so the hook is never killed for talking. The bound
 * is the file size limit (`ulimit -f`, in 512-byte blocks, SIGXFSZ ignored so that `cat` just
 * stops): `cat` writes each piece as it reads it — `head -c` (busybox's and GNU's) buffers, and GNU
 * `dd` counts a short read from a pipe as a whole block — so what a hook wrote is in the file even
 * while a background process holds its pipe. Slots are numbered by the host and reused: a capture
 * truncates the file it opens, so no file is ever removed (a removal is a fork, in the hook's time).
 *
 * Reports go to the agent's stderr, so they never interleave with the answers on stdout, which only
 * the agent's loop writes: `hookline KEY x STATUS OOM PIDS` when the hook's main process exits
 * (128 + N for signal N, as Docker reports it; the limit counters read right then),
 * `hookline KEY o 0|1` and `… e 0|1` when a stream's file is complete (1: not empty), `… x nocwd`,
 * `… x noexec` for a hook that could not start, and `… x lost` from a wrapper that died (a fork the
 * pids limit refused).
 *
 * `hookline_collect` (after the exit, once both streams are complete or 200 ms passed) ends capture
 * processes still held open by a hook's background processes, sends each non-empty file as base64
 * lines after a line `ID o` or `ID e` and empties it, and answers with the limit counters. A hook
 * whose streams were both complete and empty needs no collection at all: the host has the exit and
 * the counters from the reports.
 *
 * Forks happen only here: the pipeline, the hook's, two `cat`s (and a draining one per stream with output),
 * and `base64` when collecting one. The hook's helper processes stay in the agent's process group
 * and session, which the kill function never signals as a whole, and do not carry
 * `HOOKLINE_EXEC_ID`; the hook does not carry `HOOKLINE_CAPTURE_ID`.
 */
export const SPAWN_FUNCTIONS = `
hookline_start() {
  set -- $_a
  _xf=$_dir/$3
  printf '%b' "$_d" 2>/dev/null | hookline_spawn "$_xf" "$1" "$2" "$_b" 3>&1 | hookline_capture "$_xf.o" "$2" o "$1" >/dev/null &
  echo "$_id ok"
  jobs >/dev/null 2>&1
}
hookline_spawn() {
  _xf=$1; _xt=$2; _xn=$3; _xd=; _xl=
  trap '[ -n "$_xl" ] || echo "hookline $_xt x lost" >&2' EXIT
  exec >/dev/null 5<&0 </dev/null
  _xl=1
  if ! eval "$4" 2>/dev/null; then echo "hookline $_xt x bad" >&2; return; fi
  if [ -n "$_xd" ] && ! cd "$_xd" 2>/dev/null; then echo "hookline $_xt x nocwd" >&2; return; fi
  if ! command -v "$1" >/dev/null 2>&1; then echo "hookline $_xt x noexec" >&2; return; fi
  _xl=
  { trap '[ -n "$_xs" ] || echo "hookline $_xt x lost" >&2' EXIT; unset OLDPWD SHLVL; umask 022; hookline_env; setsid "$@" <&5 5<&- 2>&4 4>&-; _xs=$?; hookline_counters; echo "hookline $_xt x $_xs $_oom $_pids" >&2; } 4>&1 >&3 3>&- | hookline_capture "$_xf.e" "$_xn" e "$_xt" >/dev/null 3>&- 5<&- &
  _xl=1
}
hookline_capture() {
  ${CAPTURE_MARKER_VARIABLE}=$4; export ${CAPTURE_MARKER_VARIABLE}
  trap '' XFSZ
  ulimit -f $((($2 + 511) / 512))
  # A reused slot's file exists: \`>|\` truncates it despite the agent's noclobber.
  cat >|"$1" 2>/dev/null
  [ $? -lt 128 ] || exit
  # An empty file means cat met the end of the stream: nothing is left to drain.
  if [ -s "$1" ]; then echo "hookline $4 $3 1" >&2; else echo "hookline $4 $3 0" >&2; exit; fi
  exec cat >/dev/null 2>&1
}
hookline_collect() {
  set -- $_a
  _xf=$_dir/$3
  if [ "$2" = 1 ]; then
    _xr=0
    while [ $_xr -lt 5 ]; do hookline_kill "${CAPTURE_MARKER_VARIABLE}=$1" KILL; [ "$_n" = 0 ] && break; _xr=$((_xr + 1)); done
  fi
  for _xo in o e; do
    if [ -s "$_xf.$_xo" ]; then echo "$_id $_xo"; base64 "$_xf.$_xo"; : >|"$_xf.$_xo"; fi
  done
  hookline_counters
  echo "$_id ok $_oom $_pids"
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
  const exports = [...Object.entries(setup.env), [EXEC_MARKER_VARIABLE, setup.marker] as const].map(
    ([name, value]) => `export ${name}=${quote(value)};`,
  );
  return `_xd=${quote(setup.workingDir)}; set -- ${setup.argv.map(quote).join(' ')}; hookline_env() { ${exports.join(' ')} }`;
}

function quote(value: string): string {
  return value
    .split('\n')
    .map((line) => `'${line.replaceAll("'", `'\\''`)}'`)
    .join('"$_nl"');
}
