/**
 * The `hookline.toml` that `hookline init --preset agent` writes: a guard against recursive deletes
 * and the classic examples — format after a write, lint after an edit, notify at session start —
 * made safe to run in any project (the guard needs nothing but grep; the Rust tools run only where
 * there is a Cargo.toml; the notification, which needs a real URL, is commented out). Tools have
 * their canonical names, so the same file guards every agent `hookline install <agent>` bridges.
 */
export function agentStarter(): string {
  return `# Hookline configuration for a coding agent's hooks (preset "agent"; a coding agent's own
# .agent/settings.toml reads the same, and the CLI finds it when there is no hookline.toml).
#   hookline install claude                                   let Claude Code run these hooks
#   hookline validate                                         check this file
#   hookline emit post_tool_use --set tool_name=file_write    run the hooks of one tool call
# Tools have canonical names (shell, file_read, file_write, file_edit, web_fetch, mcp, …): through
# \`hookline bridge <agent>\` every agent's shell tool is "shell", its own name in agent_tool_name.
# Shell actions run with \`bash -c\` in the project folder and get the context as one JSON line on
# stdin, plus AGENT_CODE_HOOK_EVENT, AGENT_CODE_HOOK_TOOL and AGENT_CODE_HOOK_CONTEXT. A non-zero exit
# of a pre_tool_use hook vetoes the tool call, with the hook's stderr as the reason.
preset = "agent"

# Veto recursive deletes in any agent's shell tool.
[[hooks]]
name = "no-rm-rf"
event = "pre_tool_use"
tool_name = "shell"
[hooks.action]
type = "shell"
command = '''if grep -q 'rm -rf'; then echo "no rm -rf: delete files one by one" >&2; exit 2; fi'''

# Auto-format after any write (swap in your formatter: prettier --write, gofmt -w, black …).
[[hooks]]
event = "post_tool_use"
tool_name = "file_write"
[hooks.action]
type = "shell"
command = "if [ -f Cargo.toml ]; then cargo fmt; fi"

# Lint after edits.
[[hooks]]
event = "post_tool_use"
tool_name = "file_edit"
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
`;
}
