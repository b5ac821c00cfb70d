/** What a shim needs to know, fixed when `hookline install` writes it. */
export interface ShimOptions {
  /** The agent whose hooks it answers (\`claude\`): the daemon's path \`/hooks/<agent>\`. */
  readonly agent: string;
  /** bash's absolute path (the shim's interpreter: its `/dev/tcp` reaches the daemon without another process). */
  readonly bash: string;
  /** The daemon's files: `serve.port` and `serve-token`. */
  readonly portFile: string;
  readonly tokenFile: string;
  /** The fallback: the shell command line of `hookline bridge <agent> …` (its words quoted), fed the payload on stdin. */
  readonly fallbackCommand: string;
  /** The request's query (`?preset=claude`), or ''. */
  readonly query?: string;
  /** How long the shim waits for the daemon's answer, in seconds, before it falls back. */
  readonly timeoutSeconds: number;
}

/**
 * The shim: a bash script an agent's hook entry runs as `<shim> [<event>]` (without an event, the
 * daemon reads it from the payload). It reads the
 * payload, sends it to the daemon over 127.0.0.1 with bash's own `/dev/tcp` (no curl, no Node: a
 * spawn of bash is the whole cost), and prints the daemon's framed answer (see shim-frame.ts) as
 * `hookline bridge` would. Whenever the daemon cannot give a complete answer — not running, port or
 * token file missing, refused, no answer in time, a malformed reply — it hands the same payload to
 * the fallback (`hookline bridge`), which fails closed on its own: a stopped daemon is never an approval.
 * The fallback gets `HOOKLINE_REQUIRE_TRUST=1`: it keeps the daemon's rule that an untrusted project's
 * hook config never runs.
 */
export function shimScript(options: ShimOptions): string {
  return `#!${options.bash}
# Written by \`hookline install\`: answers an agent's hooks through the \`hookline serve\` daemon, and
# through \`hookline bridge\` when the daemon is not there. Overwritten by the next install.
LC_ALL=C
# Whole, in 64 KiB reads: \`read -d ''\` would read a pipe one byte at a time.
payload=
while IFS= read -r -N 65536 chunk; do payload+=$chunk; done
payload+=$chunk
agent=${shellQuote(options.agent)} event=$1
# An entry that names its event for the bridge (--event <event>) names it for the daemon too.
forward=()
[[ $1 == --event ]] && { event=$2; forward=(--event "$2"); }
answer() {
  { IFS= read -r port < ${shellQuote(options.portFile)} && IFS= read -r token < ${shellQuote(options.tokenFile)}; } 2>/dev/null || return 1
  [[ $port =~ ^[0-9]+$ ]] || return 1
  { exec 3<>"/dev/tcp/127.0.0.1/$port"; } 2>/dev/null || return 1
  printf 'POST /hooks/%s/%s%s HTTP/1.1\\r\\nHost: 127.0.0.1\\r\\nConnection: close\\r\\nAuthorization: Bearer %s\\r\\nX-Hookline-Shim: 1\\r\\nContent-Type: application/json\\r\\nContent-Length: %d\\r\\n\\r\\n%s' "$agent" "$event" ${shellQuote(options.query ?? '')} "$token" "\${#payload}" "$payload" >&3 || return 1
  local line code= length= out=
  while IFS= read -r -t ${options.timeoutSeconds} line <&3; do
    line=\${line%$'\\r'}
    [[ -z $line ]] && break
    case $line in
      'HTTP/1.1 '*) [[ $line == 'HTTP/1.1 200 '* ]] || return 1 ;;
      [Hh]ookline-[Ee]xit-[Cc]ode:*) code=\${line#*: } ;;
      [Hh]ookline-[Ss]tdout-[Bb]ytes:*) out=\${line#*: } ;;
      [Cc]ontent-[Ll]ength:*) length=\${line#*: } ;;
    esac
  done
  [[ -z $line && $code =~ ^[0-9]+$ && $out =~ ^[0-9]+$ && $length =~ ^[0-9]+$ ]] || return 1
  local body=
  if (( length > 0 )); then
    IFS= read -r -N "$length" -t ${options.timeoutSeconds} body <&3
    (( $? > 128 || \${#body} != length )) && return 1
  fi
  exec 3<&-
  printf '%s' "\${body:0:out}"
  [[ -n \${body:out} ]] && printf '%s' "\${body:out}" >&2
  exit "$code"
}
answer
HOOKLINE_REQUIRE_TRUST=1 ${options.fallbackCommand} "\${forward[@]}" <<<"$payload"
`;
}

/** `word` in single quotes for sh/bash. */
function shellQuote(word: string): string {
  return `'${word.replaceAll("'", `'\\''`)}'`;
}
