import type { EventSpec } from '../preset.ts';

/**
 * The commented hookline.toml `hookline init` writes for preset `arc`: valid as it stands, with one
 * harmless hook and the catalog's events listed.
 */
export function arcStarter(events: readonly EventSpec[]): string {
  const names = wrap(events.map((event) => event.name).join(', '), 92, '#   ');
  return `# Hookline configuration: hooks that run when a host (or \`hookline emit\`) emits lifecycle events.
#   hookline validate                       check this file (every problem, with its line)
#   hookline list                           the hooks in force, after layering
#   hookline explain stage_start --set node_id=build   what would run for an event, and why not
#   hookline emit run_start                 run an event's hooks and print the decision
# Editor completion: \`hookline schema > hookline.schema.json\`, then make this the first line:
#   #:schema ./hookline.schema.json
#
# Events of preset "arc":
${names}
#
# A command hook runs with \`sh -c\`. It gets the event's context as JSON on stdin and in the file
# $ARC_HOOK_CONTEXT, plus ARC_EVENT, ARC_RUN_ID, ARC_WORKFLOW and ARC_NODE_ID. Exit 0 = proceed, or
# print a decision: {"decision": "skip" | "block" | "override", "reason": "…", "edge_to": "…"}.
# Exit 2 = block. A failure or timeout blocks command hooks unless on_error = "proceed".

# preset = "arc"
# plugins = ["hookline-runner-ntfy"]   # third-party runner packages, resolved from this file's folder

# [sandbox]
# provider = "local"   # default: the host, in its own process group, env without *_TOKEN/*_API_KEY/…

[[hooks]]
name = "announce-run"
event = "run_start"
command = "echo \\"hookline: run $ARC_RUN_ID of $ARC_WORKFLOW is starting\\" >&2"
timeout_ms = 5000

# [[hooks]]
# name = "no-friday-deploys"
# event = "stage_start"
# matcher = "^deploy$"     # a regex tried against node_id, handler_type, edge_from, edge_to
# command = '''[ "$(date +%u)" != 5 ] || { echo '{"decision":"block","reason":"no deploys on Fridays"}'; exit 2; }'''

# [[hooks]]
# name = "notify-failure"
# event = "run_failed"     # non-blocking by default: runs after the decision, never changes it
# command = "./scripts/notify.sh"
# on_error = "proceed"
# sandbox = false          # run with the host's full environment
`;
}

function wrap(text: string, width: number, prefix: string): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line !== '' && prefix.length + line.length + word.length + 1 > width) {
      lines.push(prefix + line.trimEnd());
      line = '';
    }
    line += `${word} `;
  }
  if (line !== '') lines.push(prefix + line.trimEnd());
  return lines.join('\n');
}
