import { SPAWN_FUNCTIONS, SPAWN_TOOLS } from './hook-spawner.ts';
import { COUNTERS_FUNCTION } from './limit-counters.ts';
import { EXEC_MARKER_VARIABLE, KILL_FUNCTION } from './process-killer.ts';

/** Where files written with `writeFile` go inside the container: made by the agent, mode 0700, on the tmpfs `/tmp`. */
export const FILES_DIRECTORY = '/tmp/hookline';

/** Where the agent keeps the stdin and output of the hooks it starts (mode 0700, apart from `writeFile`'s files). */
export const HOOK_FILES_DIRECTORY = '/tmp/hookline-hooks';

/** `$0` of the container's main process and of its agent, so `ps` and `docker top` name them. */
export const AGENT_NAME = 'hookline-agent';

/**
 * The container's command line: reads the agent's script from stdin up to a line `.`, then runs it.
 * The script arrives as the first thing written after attaching, so `ps` and `docker top` show this
 * short line rather than the whole script. (The `\n` is a real newline: `read` strips each line's.)
 */
export const AGENT_BOOT = 's=; while IFS= read -r l && [ "$l" != . ]; do s="$s$l\n"; done; eval "$s"';

/**
 * The agent's script. Run by {@link AGENT_BOOT}, the container's main process keeps the container
 * alive and forks the agent: a shell loop reading requests on its stdin, five lines each (id,
 * operation, two arguments, data with `\\`, newline and NUL escaped for `printf %b`), answering
 * `ID ok [RESULT]` or `ID err MESSAGE` on stdout. It writes and removes context files, starts hooks
 * and hands back their output (see {@link SPAWN_FUNCTIONS}), finds and signals a hook's processes,
 * and reads the container's limit counters. Run as `sh -c SCRIPT hookline-agent once` in an exec,
 * it answers the requests on that exec's stdin and exits: the fallback when the resident agent is gone.
 *
 * Why a resident agent: an exec costs tens of milliseconds (runc joining the container's
 * namespaces), far more than the hook `true` it serves. The agent answers in well under a
 * millisecond, is already inside the container's cgroup, and runs as the sandbox user, so the hooks
 * it forks do too. Nothing in its loop forks except `rm`, `chmod` for a mode other than 0600, and
 * starting and collecting hooks; finding and killing processes and reading counters work in a
 * container at its pids limit. A fork that the limit refuses makes a shell exit: the agent then
 * replaces itself (`exec`, which needs no new process) by a fresh agent that answers the request
 * it was handling with the error, and goes on. Files are created with umask 077 under noclobber, so
 * never over an existing file, and mode 0600.
 *
 * Why a separate main process: if the agent dies (a hook of the run may kill it: same user), the
 * container lives on; the main process says `0 gone STATUS` and the host falls back to execs. Its
 * stdin stays open when no client is attached (`StdinOnce: false`), so a container whose owner was
 * killed keeps running until pruned.
 */
export const AGENT_SCRIPT = `
umask 077
set -C
_dir=${HOOK_FILES_DIRECTORY}
_nl='
'
if [ "$1" != revive ]; then
  mkdir -p ${FILES_DIRECTORY} $_dir 2>/dev/null
  for _t in ${FILES_DIRECTORY} $_dir; do
    if [ ! -d $_t ] || [ ! -w $_t ]; then echo "0 err cannot create $_t as the sandbox user"; exit 1; fi
  done
fi
${KILL_FUNCTION}
${COUNTERS_FUNCTION}
${SPAWN_FUNCTIONS}
hookline_serve() {
  while IFS= read -r _id && IFS= read -r _op && IFS= read -r _a && IFS= read -r _b && IFS= read -r _d; do
    case $_op in
      w) if { printf '%b' "$_d" >"$_a"; } 2>/dev/null; then
           if [ "$_b" = 600 ] || chmod "$_b" "$_a" 2>/dev/null; then echo "$_id ok"; else echo "$_id err cannot set mode $_b on $_a"; fi
         elif [ -e "$_a" ]; then echo "$_id err $_a exists"
         else echo "$_id err cannot write $_a (is /tmp full?)"; fi;;
      r) rm -f -- "$_a" 2>/dev/null; if [ -e "$_a" ]; then echo "$_id err cannot remove $_a"; else echo "$_id ok"; fi;;
      k) hookline_kill "${EXEC_MARKER_VARIABLE}=$_a" "$_b"; echo "$_id ok $_n";;
      c) hookline_counters; echo "$_id ok $_oom $_pids";;
      p) echo "$_id ok";;
      x) if [ -n "$_spawn" ]; then hookline_start; else echo "$_id err this agent does not start hooks"; fi;;
      o) hookline_collect;;
      *) echo "$_id err unknown operation $_op";;
    esac
    _id=
  done
  _id=; _served=1
}
hookline_revive() {
  [ -n "$_served" ] && return
  exec sh -c "$s" ${AGENT_NAME} revive "$_id" "$_spawn" "$s"
}
case $1 in
  once) hookline_serve;;
  revive)
    _spawn=$3; s=$4
    trap hookline_revive EXIT
    [ -n "$2" ] && echo "$2 err the agent could not fork (is the container at its pids limit?)"
    hookline_serve;;
  *)
    _spawn=1
    for _t in ${SPAWN_TOOLS.join(' ')}; do command -v $_t >/dev/null 2>&1 || _spawn=; done
    ( trap hookline_revive EXIT; _p=; { IFS= read -r _p </proc/self/stat; } 2>/dev/null; echo "0 ready \${_p%% *} \${_spawn:-0}"; hookline_serve )
    printf '\\n0 gone %s\\n' "$?"
    while IFS= read -r _; do :; done
    exec sleep 2147483647;;
esac
`;
