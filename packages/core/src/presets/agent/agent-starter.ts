/**
 * The `hookline.toml` that `hookline init --preset agent` writes: the classic examples — format
 * after a write, lint after an edit, notify at session start — made safe to run in any project (the
 * Rust tools run only where there is a Cargo.toml; the notification, which needs a real URL, is
 * commented out).
 */
export function agentStarter(): string {
  return `# Hookline configuration for a coding agent's hooks (preset "agent"; a coding agent's own
# .agent/settings.toml reads the same, and the CLI finds it when there is no hookline.toml).
#   hookline validate                                         check this file
#   hookline emit post_tool_use --set tool_name=FileWrite     run the hooks of one tool call
# Shell actions run with \`bash -c\` in the project folder and get the context as one JSON line on
# stdin, plus AGENT_CODE_HOOK_EVENT, AGENT_CODE_HOOK_TOOL and AGENT_CODE_HOOK_CONTEXT. A non-zero exit
# of a pre_tool_use hook vetoes the tool call, with the hook's stderr as the reason.
preset = "agent"

# Auto-format after any write (swap in your formatter: prettier --write, gofmt -w, black …).
[[hooks]]
event = "post_tool_use"
tool_name = "FileWrite"
[hooks.action]
type = "shell"
command = "if [ -f Cargo.toml ]; then cargo fmt; fi"

# Lint after edits.
[[hooks]]
event = "post_tool_use"
tool_name = "FileEdit"
[hooks.action]
type = "shell"
command = "if [ -f Cargo.toml ]; then cargo clippy --quiet; fi"

# Notify on session start (HTTP hooks need @hookline/runner-http installed next to the CLI).
# [[hooks]]
# event = "session_start"
# [hooks.action]
# type = "http"
# url = "https://hooks.slack.com/services/T.../B.../..."
# method = "POST"

# Veto dangerous shell commands before they run.
# [[hooks]]
# event = "pre_tool_use"
# tool_name = "Bash"
# [hooks.action]
# type = "shell"
# command = '''jq -r '.tool_input.command // ""' | grep -q 'rm -rf /' && { echo "no rm -rf /" >&2; exit 1; } || exit 0'''
`;
}
