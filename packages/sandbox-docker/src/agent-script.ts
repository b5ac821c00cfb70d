import { COUNTERS_FUNCTION } from './limit-counters.ts';
import { KILL_FUNCTION } from './process-killer.ts';

/** Where files written with `writeFile` go inside the container: made by the agent, mode 0700, on the tmpfs `/tmp`. */
export const FILES_DIRECTORY = '/tmp/hookline';

/**
 * The container's command line: reads the agent's script from stdin up to a line `.`, then runs it.
 * The script arrives as the first thing written after attaching, so `ps` and `docker top` show this
 * short line rather than the whole script. (The `\n` is a real newline: `read` strips each line's.)
 */
export const AGENT_BOOT = 's=; while IFS= read -r l && [ "$l" != . ]; do s="$s$l\n"; done; eval "$s"';

/**
 * The agent, the container's main process: a shell loop reading requests on its stdin, five lines
 * each (id, operation, two arguments, data with `\\`, newline and NUL escaped for `printf %b`), answering
 * `ID ok [RESULT]` or `ID err MESSAGE` on stdout. It writes and removes context files, finds and
 * signals a hook's processes, and reads the container's limit counters.
 *
 * Why a resident agent rather than an exec per operation: an exec costs tens of milliseconds (runc
 * joining the container's namespaces), far more than the hook `true` it serves; writing and removing
 * the context file with execs of their own would triple a quick hook's cost, and stopping a hook
 * takes several rounds of looking for its processes. The agent answers in well under a millisecond,
 * is already inside the container's cgroup (so it works at the pids limit: nothing in the loop
 * forks except `rm`, and `chmod` for a mode other than 0600), and runs as the sandbox user. Files are
 * created with umask 077 under noclobber, so never over an existing file, and mode 0600. Being the
 * main process also makes it the keep-alive: the container needs nothing but `sh` (and `mkdir`,
 * `rm`). Its stdin stays open when no client is attached (`StdinOnce: false`), so a container whose
 * owner was killed keeps running until pruned.
 */
export const AGENT_SCRIPT = `
umask 077
set -C
mkdir -p ${FILES_DIRECTORY} 2>/dev/null
if [ ! -d ${FILES_DIRECTORY} ] || [ ! -w ${FILES_DIRECTORY} ]; then echo "0 err cannot create ${FILES_DIRECTORY} as the sandbox user"; exit 1; fi
${KILL_FUNCTION}
${COUNTERS_FUNCTION}
echo "0 ready"
while IFS= read -r _id && IFS= read -r _op && IFS= read -r _a && IFS= read -r _b && IFS= read -r _d; do
  case $_op in
    w) if { printf '%b' "$_d" >"$_a"; } 2>/dev/null; then
         if [ "$_b" = 600 ] || chmod "$_b" "$_a" 2>/dev/null; then echo "$_id ok"; else echo "$_id err cannot set mode $_b on $_a"; fi
       elif [ -e "$_a" ]; then echo "$_id err $_a exists"
       else echo "$_id err cannot write $_a (is /tmp full?)"; fi;;
    r) rm -f -- "$_a" 2>/dev/null; if [ -e "$_a" ]; then echo "$_id err cannot remove $_a"; else echo "$_id ok"; fi;;
    k) hookline_kill "$_a" "$_b"; echo "$_id ok $_n";;
    c) hookline_counters; echo "$_id ok $_oom $_pids";;
    p) echo "$_id ok";;
    *) echo "$_id err unknown operation $_op";;
  esac
done
`;
