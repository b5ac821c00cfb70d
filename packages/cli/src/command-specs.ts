import { defineCommand, type CommandSpec, type OptionSpec } from './command.ts';
import { DEFAULT_MAX_LINE_BYTES } from './stream/line-limits.ts';

// Only data here: this module is loaded by every run (through command-table.ts), and each command's
// code loads when it runs, so `hookline emit` never parses the code of `schema` and `--help` loads no
// command at all.

/** `--config FILE`, repeatable, and `--preset NAME`: the options of every config-reading command. */
function configOptions(help = 'config file to load (repeatable, in layering order)') {
  return {
    config: { type: 'string', short: 'c', multiple: true, value: 'FILE', help },
    preset: {
      type: 'string',
      value: 'NAME',
      help: `read the config as preset NAME (arc, task, agent, claude) instead of
its preset = … or what it looks like; with claude and no --config:
~/.claude/settings.json, .claude/settings.json, .claude/settings.local.json`,
    },
  } as const satisfies Record<string, OptionSpec>;
}

const CONTEXT_OPTION = {
  type: 'string',
  value: 'FILE|-',
  help: "the event's context: a JSON object in FILE, or on stdin with -",
} as const satisfies OptionSpec;
const JOURNAL_OPTION = {
  type: 'string',
  value: 'FILE|URL',
  help: `where durable hooks are journaled: an SQLite file or a postgres:// URL
(default $HOOKLINE_JOURNAL, else [journal] url, else .hookline/journal.db);
used only when the config has durable hooks`,
} as const satisfies OptionSpec;
const EVENT = [{ name: 'event', event: true }] as const;

export const emit = defineCommand({
  summary: "run an event's hooks and print the outcome (exit 2 on block)",
  description: `Runs the hooks of <event> and prints the merged outcome. Waits for non-blocking hooks too.
Exit code: 0, or 2 when the decision is block (1 for errors).`,
  positionals: EVENT,
  options: {
    context: CONTEXT_OPTION,
    set: {
      type: 'string',
      multiple: true,
      value: 'key=value',
      help: `set a top-level context field (repeatable, applied after --context).
A field is read by the type its preset documents: text as is,
integers as whole numbers, objects and arrays as JSON (quote it:
--set 'tool_input={"command":"ls"}'); fields the preset does not
document are JSON when the value parses (3, true, {"a":1}), else text.`,
    },
    ...configOptions(`config file to load (repeatable, in layering order). Default: the
user layer $XDG_CONFIG_HOME/hookline/hookline.toml, then ./hookline.toml`),
    journal: JOURNAL_OPTION,
    json: { type: 'boolean', help: 'print the outcome as JSON (one line) and nothing else on stdout' },
  },
  setup: 'run-hooks',
  context: true,
  blocksWhenConfigFails: true,
  epilog: ({ contextDefaults }) => `Missing required context fields are filled in per preset:
${contextDefaults}

With durable hooks, durable hooks a killed hookline left in the journal run again first (reported
on stderr), alongside the event.

Examples:
  hookline emit stage_start --set node_id=deploy
  hookline emit edge_selected --set edge_from=test --set edge_to=deploy --json
  hookline emit after_merge --set task=t-42 --set branch=work/t-42     (preset = "task")
  hookline emit pre_tool_use --set tool_name=Bash                      (preset = "agent")
  hookline emit PreToolUse --config .claude/settings.json --context input.json   (Claude Code hooks)
  echo '{"run_id":"r1","workflow_name":"ship","node_id":"build"}' | hookline emit stage_start --context -
`,
});

export const run = defineCommand({
  summary: 'read events as JSON lines on stdin, write one outcome line each',
  description: `Reads events as JSON lines on stdin — {"event": "stage_start", "run_id": "r1", "workflow_name": "ship", …}
— and writes one outcome line (the JSON emit --json prints) per event to stdout, in order. Events are handled one
at a time, like a host that waits for each decision. Empty lines are ignored. Under preset claude a
line may name its event in "hook_event_name" instead: Claude Code's hook inputs work as they are.

Each session key (run_id for preset arc, task for task, session_id for agent and claude) gets one
sandbox session, ended after the run's run_complete/run_failed (arc), session_stop (agent) or
SessionEnd (claude) once its hooks
are done; task sessions end at exit. A line that cannot be emitted (not JSON, no "event", unknown
event, missing run_id…) gets an error line instead: {"line": 3, "event": "…", "error": {"code": "…",
"message": "…"}}; the rest go on, and the exit code is then 1. Nothing is filled in: a host names its runs.

With durable hooks, durable hooks a killed hookline left in the journal run again at start, alongside
the input; what they did goes to stderr, never to stdout.

At end of input the CLI answers every event read, waits for non-blocking hooks still running (and the
resumed ones), disposes the sessions and exits 0. SIGINT/SIGTERM abort hooks in flight (killing their
process groups), release their journal entries, dispose the sessions and exit 130/143.`,
  positionals: [],
  options: {
    settled: {
      type: 'boolean',
      help: `write each outcome once its non-blocking hooks are done too, instead of
as soon as the decision is known (their status is then "pending")`,
    },
    ...configOptions(),
    journal: JOURNAL_OPTION,
    'max-line-bytes': {
      type: 'string',
      value: 'N',
      help: `the longest outcome line (default ${DEFAULT_MAX_LINE_BYTES}); a longer one has its
long texts cut and "truncated": true, and stays valid JSON`,
    },
  },
  setup: 'run-hooks',
  epilog: `Example:
  printf '%s\\n' '{"event":"run_start","run_id":"r1","workflow_name":"ship"}' | hookline run
`,
});

export const explain = defineCommand({
  summary: 'dry run: every hook, whether it would run for an event, and why not',
  description: `A dry run: lists every configured hook — of this event or not — whether it would run for this
event and context, and why not: another event, disabled (and by which file), its matcher tried
against which context fields, or no matcher field in the context. Nothing is executed.`,
  positionals: EVENT,
  options: {
    context: CONTEXT_OPTION,
    set: {
      type: 'string',
      multiple: true,
      value: 'key=value',
      help: 'set a top-level context field (repeatable; same rules as emit)',
    },
    ...configOptions(),
    json: { type: 'boolean', help: 'print {"event", "context", "hooks": [{name, event, type, selected, reason, …}]}' },
  },
  setup: 'read',
  context: true,
  epilog: `Examples:
  hookline explain stage_start --set node_id=deploy
  hookline explain edge_selected --set edge_from=test --set edge_to=deploy
`,
});

export const validate = defineCommand({
  summary: 'check config files; every problem as file:line: message',
  description: `Loads the config files (with their plugins) exactly as emit would, runs nothing, and reports every
problem at once as file:line: message — then exits 1. Exits 0 when the configuration is valid.
Finding no config file at all is an error too (there is nothing to validate).`,
  positionals: [],
  options: {
    ...configOptions(),
    json: { type: 'boolean', help: 'print {"valid": true|false, "files": [...], "hooks": N, "issues": [...]}' },
  },
});

export const list = defineCommand({
  summary: 'the effective hooks after layering, with file:line',
  description: `Prints the effective hooks after layering, in the order they run, with the file:line each comes from
(a later layer's hook of the same name replaces the earlier one in place; enabled = false disables).
"durable" marks hooks that are journaled before emit returns and run again after a crash.`,
  positionals: [],
  options: {
    ...configOptions(),
    json: {
      type: 'boolean',
      help: `print a JSON array: name, event, type, blocking, durable, matcher, timeout_ms,
sandbox, on_error, enabled, options, source {file, line, index} of the
definition in force, and disabled_by {file, line} for a disabled hook`,
    },
  },
  setup: 'read',
});

export const schema = defineCommand({
  summary: 'print the config JSON Schema (installed runners and plugins included)',
  description: `Prints the JSON Schema of hookline.toml for every installed first-party runner and sandbox (their settings
tables included: [models], [sandbox.docker], [sandbox.bubblewrap]) plus the plugins the
config files list (found as usual, or given with --config; the config need not be valid), in the
dialect of the preset (--preset, else the config's, else arc; --preset claude describes Claude Code's
settings files and their "hooks" object). Point editors at it
with a first line such as:  #:schema ./hookline.schema.json`,
  positionals: [],
  options: configOptions('config files whose plugins (and preset) to include'),
  epilog: `Example:
  hookline schema > hookline.schema.json
`,
});

export const worker = defineCommand({
  summary: 'run durable hooks recorded in a shared journal until stopped',
  description: `Runs the durable hooks recorded in the journal by any process on any machine that shares it, with
the current config, until stopped. Pair it with [journal] run = "workers" on the emitting side.
A progress line on stderr shows claimed, ran, failed, released, the backlog and the oldest entry's
age. SIGTERM or SIGINT stops claiming, lets in-flight hooks finish within the grace period, releases
the rest and exits 0; a second signal exits at once.`,
  positionals: [],
  options: {
    concurrency: { type: 'string', value: 'N', help: 'entries run at once (default 4)' },
    ...configOptions(),
    journal: {
      ...JOURNAL_OPTION,
      help: 'the journal (default $HOOKLINE_JOURNAL, else [journal] url, else .hookline/journal.db)',
    },
    'grace-ms': {
      type: 'string',
      value: 'N',
      help: `on SIGTERM/SIGINT, how long in-flight hooks may finish (default 30000); what is
still running then is stopped and its entry released for another worker`,
    },
    'poll-ms': {
      type: 'string',
      value: 'N',
      help: `how often an idle worker looks for work without a notification (default
1000; a PostgreSQL journal wakes idle workers at once with NOTIFY)`,
    },
    json: { type: 'boolean', help: 'one JSON event per line on stdout (claimed, ran, released, error, stopped)' },
  },
  setup: 'run-hooks',
});
export const journal = defineCommand({
  summary: 'journal ls|stats|retry|purge: durable entries pending, leased, dead-lettered',
  description: `Looks into the durable-hook journal (SQLite or PostgreSQL, as emit and worker choose it).
  ls              every entry not cleared yet: id, event, state (pending, leased, dead-lettered),
                  holder and lease end, attempts, age, delivery attempts, last error; --dead: dead
                  letters only (--json: with every delivery attempt)
  stats           pending, leased, dead-lettered, the oldest entry's age, the most attempts
  retry ID        make a dead-lettered entry pending again, its attempts counted from 0; an entry
                  refused for its seal (forged, edited, or written before entries were sealed)
                  needs --trust: you vouch for its context, and it is sealed with your key
  retry --since DATE | --endpoint URL
                  retry every dead letter dead-lettered since DATE, and/or with an attempt to URL
                  (which is re-enabled if it was disabled by a 410 Gone); both given: both must hold
  purge --before DATE
                  delete the dead letters dead-lettered before DATE
DATE is a date (2026-12-01, 2026-12-01T08:00:00Z) or an age (30m, 24h, 7d: that long ago).`,
  positionals: [
    { name: 'action', choices: ['ls', 'stats', 'retry', 'purge'] },
    { name: 'ID', optional: true },
  ],
  options: {
    ...configOptions('config file to load (for [journal] url)'),
    journal: {
      ...JOURNAL_OPTION,
      help: 'the journal (default $HOOKLINE_JOURNAL, else [journal] url, else .hookline/journal.db)',
    },
    json: {
      type: 'boolean',
      help: 'machine output: ls an array of entries, stats an object, retry {"retried": …}, purge {"purged": N}',
    },
    dead: { type: 'boolean', help: 'ls: only dead-lettered entries' },
    since: { type: 'string', value: 'DATE', help: 'retry: the dead letters dead-lettered since DATE' },
    endpoint: {
      type: 'string',
      value: 'URL',
      help: 'retry: the dead letters with an attempt to URL (as the config writes it); re-enables URL',
    },
    before: { type: 'string', value: 'DATE', help: 'purge: the dead letters dead-lettered before DATE' },
    trust: { type: 'boolean', help: 'retry ID: accept an entry whose seal does not verify (check its context first)' },
  },
});
export const webhook = defineCommand({
  summary: 'webhook verify: check a Standard Webhooks signature as a receiver would',
  description: `Checks one received delivery the way its receiver should: the webhook-signature header must hold a
v1 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{body}" keyed with the whsec_… secret, and the
timestamp must be within --tolerance of now. BODY is the raw body as received (a file, or - or nothing
for stdin). The headers come from --id, --timestamp and --signature, or from --headers FILE (lines
"name: value", e.g. saved with curl -D). Exit 0 when it verifies, 1 (with the reason) when it does not.`,
  positionals: [
    { name: 'action', choices: ['verify'] },
    { name: 'BODY', optional: true },
  ],
  options: {
    'secret-env': {
      type: 'string',
      value: 'NAME',
      help: 'the environment variable holding the whsec_… secret (default HOOKLINE_WEBHOOK_SECRET)',
    },
    id: { type: 'string', value: 'ID', help: 'the webhook-id header' },
    timestamp: { type: 'string', value: 'SECONDS', help: 'the webhook-timestamp header' },
    signature: { type: 'string', value: 'SIG', help: 'the webhook-signature header' },
    headers: {
      type: 'string',
      value: 'FILE',
      help: 'read the three headers from FILE ("name: value" lines); the flags above win',
    },
    tolerance: {
      type: 'string',
      value: 'SECONDS',
      help: 'how far the timestamp may be from now (default 300); 0 to skip the check',
    },
    json: { type: 'boolean', help: 'print {"valid": true} or {"valid": false, "problem": …}' },
  },
  epilog: `Example:
  HOOKLINE_WEBHOOK_SECRET=whsec_… hookline webhook verify body.json \
    --id msg_0b5f… --timestamp 1767225600 --signature 'v1,K5oZ…'
`,
});

export const init = defineCommand({
  summary: 'write a commented starter hookline.toml',
  description: `Writes a commented starter config to FILE (default ./hookline.toml) for a preset:
  arc     (default) one harmless run_start hook and commented examples
  task    after_merge lines that delete the task's remote branch, worktree and local branch (each
          safe to run twice), and commented after_awaiting_human notifications
  agent   format-after-write and lint-after-edit hooks, a commented notification and guard
  claude  .claude/settings.json (the default FILE then) with a PreToolUse guard that refuses a
          recursive delete of / or the home folder
A preset from a plugin package starts the same way: hookline init --plugin PACKAGE --preset NAME.
Refuses to replace an existing file unless --force is given.`,
  positionals: [{ name: 'FILE', optional: true }],
  options: {
    preset: { type: 'string', short: 'p', value: 'NAME', help: 'the preset to start from (default arc)' },
    remote: {
      type: 'string',
      value: 'NAME',
      help: 'task: the git remote the task branches are pushed to (default origin)',
    },
    plugin: {
      type: 'string',
      multiple: true,
      value: 'PACKAGE',
      help: 'a plugin package whose presets --preset may name (repeatable)',
    },
    force: { type: 'boolean', short: 'f', help: 'overwrite FILE if it exists' },
  },
});

export const completion = defineCommand({
  summary: 'print a shell completion script: bash, zsh or fish',
  description: `Prints a shell completion script for hookline: commands, each command's options, event names (of
every preset) after emit and explain, presets after --preset, files after --config, --context and
--journal.

  bash   eval "$(hookline completion bash)"             e.g. in ~/.bashrc
  zsh    eval "$(hookline completion zsh)"              e.g. in ~/.zshrc (uses bashcompinit)
  fish   hookline completion fish > ~/.config/fish/completions/hookline.fish`,
  positionals: [{ name: 'shell', choices: ['bash', 'zsh', 'fish'] }],
  options: {},
});

export const sandbox = defineCommand({
  summary: 'sandbox prune: remove what crashed runs left in sandboxes',
  description: `Removes what crashed runs left behind in sandboxes. Docker containers of Hookline runs carry labels
naming their run and owner process; containers whose owner is gone are removed — when
@hookline/sandbox-docker is installed. The local sandbox leaves nothing to prune: its processes end
with their hooks.`,
  positionals: [{ name: 'subcommand', choices: ['prune'] }],
  options: {
    'all-hosts': {
      type: 'boolean',
      help: 'also remove containers created from other machines sharing the engine (DOCKER_HOST)',
    },
  },
});

export const serve = defineCommand({
  summary: "serve [status|stop]: one resident engine answers every agent's hooks",
  description: `Runs the resident engine in the foreground: configs are loaded once (the user layer, and each
project's by the folder an agent reports in its payload's "cwd"), kept loaded with their runners,
journal and script isolates, re-read when a file changes (an invalid change keeps the last good
config answering, and says so), and hooks are answered over
  HTTP on 127.0.0.1   POST /hooks/<agent>/<event> (the payload and answer of \`hookline bridge\`),
                      POST /emit/<event>?cwd=DIR&preset=NAME (the outcome JSON of \`emit --json\`),
                      GET /status; every request needs the token of $XDG_STATE_HOME/hookline/serve-token
                      as "Authorization: Bearer <token>" (else 401, and nothing runs)
  a Unix socket       $XDG_RUNTIME_DIR/hookline/serve.sock (mode 0600), the same paths, no token
A project's own hook config runs only once \`hookline trust\` recorded it. Logs are JSON lines on stdout.
SIGTERM/SIGINT stop accepting, answer what is under way, let running hooks finish and exit 0.
  status   whether a daemon runs: pid, port, socket, and each project's config state
  stop     stop the running daemon (it drains first) and wait until it is gone`,
  positionals: [{ name: 'action', optional: true, choices: ['status', 'stop'] }],
  options: {
    port: {
      type: 'string',
      value: 'N',
      help: 'the TCP port on 127.0.0.1 (default 0: any free one, written to the state file)',
    },
    detach: {
      type: 'boolean',
      help: 'start in the background (log: $XDG_STATE_HOME/hookline/serve.log) and return once it answers',
    },
    json: { type: 'boolean', help: 'status: print the status as JSON' },
  },
  epilog: `Examples:
  hookline serve --detach
  hookline serve status
  curl -s -H "Authorization: Bearer $(cat ~/.local/state/hookline/serve-token)" \\
    --data '{"cwd":"'$PWD'","tool_name":"Bash","tool_input":{"command":"ls"}}' \\
    "http://127.0.0.1:$(cat ~/.local/state/hookline/serve.port)/emit/pre_tool_use"
`,
});

export const trust = defineCommand({
  summary: "trust [DIR]: let the daemon run this project's own hook config",
  description: `Records the hash of the project's hook config files (hookline.toml, .agent/settings.toml,
.claude/settings.json, .claude/settings.local.json of DIR, default the working directory) in
$XDG_STATE_HOME/hookline/trusted.json (mode 0600). \`hookline serve\` runs a project's own hooks only while
that hash matches: any change to them makes the project untrusted again until you review it and
trust it again. Hooks of your user layer need no trust.`,
  positionals: [{ name: 'DIR', optional: true }],
  options: {
    revoke: { type: 'boolean', help: 'forget the project: its hooks stop running in the daemon' },
    json: { type: 'boolean', help: 'print the record as JSON' },
  },
});

const AGENT = [{ name: 'agent' }] as const;
const USER_OPTION = {
  type: 'boolean',
  help: "the agent's user settings (~/.claude/settings.json for claude) instead of the project's",
} as const satisfies OptionSpec;
const DRY_RUN_OPTION = { type: 'boolean', help: 'print the change and write nothing' } as const satisfies OptionSpec;

export const bridge = defineCommand({
  summary: "a coding agent's hook command: its payload in, the hooks run, its answer out",
  description: `The command a coding agent's hook entry runs (\`hookline install <agent>\` writes the entries).
Reads the agent's hook payload on stdin, maps it to the event of the config's preset — the agent's own
preset (claude: Claude Code's settings dialect) as it is, or preset agent's canonical events and tool
names (PreToolUse → pre_tool_use, Bash → shell), the agent's names kept in agent_event and
agent_tool_name — runs the selected hooks as emit does, and answers in the agent's wire format on
stdout (Claude Code: exit 0 and hookSpecificOutput.permissionDecision, decision: "block", …).

Failure is never approval: when Hookline cannot decide a guard event (PreToolUse) — the payload or the
config cannot be read, a hook fails, times out or answers garbage (unless its on_error says proceed), a
crash, the deadline — the tool call is denied with the reason. Warnings go to stderr, never to stdout.
Agents: claude (Claude Code), gemini (Gemini CLI), codex (Codex), cursor (Cursor), copilot
(GitHub Copilot CLI), windsurf (Windsurf).`,
  positionals: AGENT,
  options: {
    ...configOptions(),
    journal: JOURNAL_OPTION,
    deadline: {
      type: 'string',
      value: 'SECONDS',
      help: `answer by then, whatever the hooks do (default 55 for claude); the
agent's entry timeout (install --deadline) must be above it`,
    },
    event: {
      type: 'string',
      value: 'EVENT',
      help: `the agent's event this entry is for, for an agent whose payload does not
name it (copilot: install writes it)`,
    },
  },
  epilog: `Example (what Claude Code runs for each event):
  echo '{"hook_event_name":"PreToolUse","session_id":"s","tool_name":"Bash","tool_input":{"command":"ls"}}' | hookline bridge claude
`,
});

export const install = defineCommand({
  summary: "put the bridge into a coding agent's hook settings",
  description: `Adds an entry for each event of the agent that the config has hooks for (--all-events: every
event) to its settings (claude: .claude/settings.json of the project, --user: ~/.claude/settings.json),
each running \`hookline bridge <agent>\` with a timeout
above the bridge's deadline (and onFailure: "block" on guard events, so even a bridge that cannot start
refuses the call). Merged with what is there: the user's own hooks and other keys are kept, running it
twice changes nothing, the previous file is kept as <file>.hookline-backup. A file that cannot be
parsed is left untouched. --config and --preset are written into the entries' command line.
Agents: claude (Claude Code), gemini (Gemini CLI), codex (Codex), cursor (Cursor), copilot
(GitHub Copilot CLI), windsurf (Windsurf).`,
  positionals: AGENT,
  options: {
    user: USER_OPTION,
    'dry-run': DRY_RUN_OPTION,
    ...configOptions('config file the bridge loads (repeatable; default: discovery, as emit)'),
    deadline: {
      type: 'string',
      value: 'SECONDS',
      help: "the bridge's deadline (default 55 for claude); the entries' timeout is 5 s more",
    },
    command: {
      type: 'string',
      value: 'CMD',
      help: 'how the agent starts Hookline (default: hookline, found on PATH)',
    },
    daemon: {
      type: 'boolean',
      help: `answer through the \`hookline serve\` daemon: the entries run a bash shim
($XDG_STATE_HOME/hookline/shims/<agent>) that reaches it without starting Node,
and runs the bridge instead whenever the daemon cannot answer`,
    },
    'all-events': {
      type: 'boolean',
      help: `an entry for every event the agent has, not only those the config
has hooks for (each entry starts Hookline on every such event)`,
    },
  },
  epilog: `Examples:
  hookline init --preset agent && hookline install claude
  hookline serve --detach && hookline install claude --daemon
  hookline install claude --user --dry-run
`,
});

export const uninstall = defineCommand({
  summary: "remove the bridge's entries from a coding agent's hook settings",
  description: `Removes the entries that run \`hookline bridge <agent>\` and nothing else: the user's own hooks
and other keys stay. The previous file is kept as <file>.hookline-backup.`,
  positionals: AGENT,
  options: { user: USER_OPTION, 'dry-run': DRY_RUN_OPTION },
});

export const doctor = defineCommand({
  summary: "check that a coding agent's hooks would fire through Hookline",
  description: `Reads the agent's settings files (project and user), finds the bridge's entries, sends a
synthetic guard event (claude: PreToolUse of Bash \`echo hookline doctor\`) through the exact command line
the agent would run, in this folder, and says what the agent would do with the answer — and why hooks
would not fire (no entry, hooks disabled, hookline not on PATH, a config that does not load, no hook
selected). Exit 0 when the bridge is installed and answers; 1 otherwise.`,
  positionals: AGENT,
  options: { json: { type: 'boolean', help: 'print the findings as one JSON object' } },
});

/**
 * Every command's declaration, in the order `hookline --help` lists them. Commands import their own
 * spec (for its types) and `completion` reads them all from here, not from the command table, which
 * imports the commands: declarations and code stay one way round, with no import cycle.
 */
export const COMMAND_SPECS = {
  emit,
  run,
  explain,
  validate,
  list,
  schema,
  init,
  completion,
  worker,
  journal,
  sandbox,
  webhook,
  serve,
  trust,
  bridge,
  install,
  uninstall,
  doctor,
} as const satisfies Readonly<Record<string, CommandSpec>>;
