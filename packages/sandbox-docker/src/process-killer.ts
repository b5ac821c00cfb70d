import { setTimeout as sleep } from 'node:timers/promises';

/** The variable that marks every process of one exec; its descendants inherit it. */
export const EXEC_MARKER_VARIABLE = 'HOOKLINE_EXEC_ID';

/**
 * Shell function `hookline_kill NAME=MARKER SIGNAL` of the container agent: finds the processes of
 * one exec (`HOOKLINE_EXEC_ID=<marker>`) and signals them (signal `0` only counts), leaving the count of
 * live processes in `_n`. The agent also uses it, with another variable, for the capture processes of
 * a hook it started.
 *
 * A process belongs to the exec when its environment holds `HOOKLINE_EXEC_ID=<marker>` — inherited
 * through `setsid`, double forks and reparenting to init — or when it shares a process group or
 * session with such a process (which catches a child that cleared its environment). Each group is
 * signalled as a whole (the kernel lets no member fork its way out of a group kill), then each
 * process. Only a process that both clears its environment and starts a new session escapes; it
 * lives until the run's container is removed.
 *
 * It forks nothing (globs, `read`, `case` and `kill` are shell builtins), so it works in a container
 * at its pids limit, and it runs in the agent, which is the same user as the hooks (needed to read
 * their environment and signal them). Shells drop the NUL bytes of `/proc/PID/environ` when reading
 * it, so the variables run together and the marker — a random token of fixed length — is matched as
 * a substring. The agent's own process group and session (which its keeper and the helper processes
 * of started hooks share) are never signalled as a whole. Zombies are not counted: they are dead, and init reaps them. `kill -s SIG -- -PGID`
 * is dash's and bash's spelling, `kill -s SIG -PGID` busybox's: both are tried.
 */
export const KILL_FUNCTION = `
hookline_kill() {
  _km=$1; _ks=$2; _kself=$$; _kg=" "; _kp=" "
  _kst=; { IFS= read -r _kst </proc/self/stat; } 2>/dev/null
  set -- \${_kst##*) }; _kmine=" $3 $4 "
  for _kd in /proc/[0-9]*; do
    _kpid=\${_kd#/proc/}
    case $_kpid in 1|"$_kself") continue;; esac
    _khit=
    { while IFS= read -r _kl || [ -n "$_kl" ]; do case $_kl in *"$_km"*) _khit=1; break;; esac; done <"$_kd/environ"; } 2>/dev/null
    [ -n "$_khit" ] || continue
    _kst=; { IFS= read -r _kst <"$_kd/stat"; } 2>/dev/null
    [ -n "$_kst" ] || continue
    _kp="$_kp$_kpid "
    set -- \${_kst##*) }
    for _kx in "$3" "$4"; do
      case $_kx in 0|1|"$_kself") continue;; esac
      case $_kmine in *" $_kx "*) continue;; esac
      case $_kg in *" $_kx "*) ;; *) _kg="$_kg$_kx ";; esac
    done
  done
  for _kd in /proc/[0-9]*; do
    _kpid=\${_kd#/proc/}
    case $_kpid in 1|"$_kself") continue;; esac
    case $_kp in *" $_kpid "*) continue;; esac
    _kst=; { IFS= read -r _kst <"$_kd/stat"; } 2>/dev/null
    [ -n "$_kst" ] || continue
    set -- \${_kst##*) }
    [ "$1" = Z ] && continue
    case $_kg in *" $3 "*|*" $4 "*) _kp="$_kp$_kpid ";; esac
  done
  _n=0
  for _kpid in $_kp; do _n=$((_n + 1)); done
  if [ "$_ks" != 0 ]; then
    for _kx in $_kg; do kill -s "$_ks" -- "-$_kx" 2>/dev/null || kill -s "$_ks" "-$_kx" 2>/dev/null; done
    for _kpid in $_kp; do kill -s "$_ks" "$_kpid" 2>/dev/null; done
  fi
}
`;

/** Runs the kill function with a signal and resolves to the number of live processes it found. */
export type KillRunner = (signal: 'TERM' | 'KILL' | '0') => Promise<number>;

/**
 * Ends the processes of an exec: SIGTERM to all of them, a grace period in which they may
 * exit (checked with growing pauses), then SIGKILL, repeated until none is found. Resolves to
 * `true` when none is left, `false` when some survived three SIGKILL rounds (the caller then
 * restarts the container). A kill function that cannot run rejects.
 */
export async function stopProcesses(kill: KillRunner, graceMs: number): Promise<boolean> {
  if ((await kill('TERM')) === 0) return true;
  const deadline = performance.now() + graceMs;
  let pause = 20;
  while (performance.now() < deadline) {
    await sleep(Math.min(pause, Math.max(0, deadline - performance.now())));
    pause = Math.min(pause * 2, 200);
    if ((await kill('0')) === 0) return true;
  }
  for (let round = 0; round < 3; round++) {
    await kill('KILL');
    // SIGKILL is delivered at once, but a process is gone only once the kernel has torn it down.
    await sleep(20);
    if ((await kill('0')) === 0) return true;
  }
  return false;
}
