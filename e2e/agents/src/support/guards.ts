/**
 * One guard config for every agent (preset `agent`, canonical tool name `shell`): refuse `rm -rf`,
 * rewrite one command, give the model context after a shell call.
 */
export const GUARDS = `preset = "agent"

[[hooks]]
name = "no-rm-rf"
event = "pre_tool_use"
tool_name = "shell"
[hooks.action]
type = "shell"
command = '''grep -q 'rm -rf' && { echo "no rm -rf here: delete files one by one" >&2; exit 2; } || exit 0'''

[[hooks]]
name = "rewrite"
event = "pre_tool_use"
tool_name = "shell"
[hooks.action]
type = "shell"
command = '''grep -q 'touch original-marker' && echo '{"decision": "proceed", "updated_input": {"command": "touch rewritten-marker"}}' || exit 0'''

[[hooks]]
name = "context"
event = "post_tool_use"
tool_name = "shell"
blocking = true
[hooks.action]
type = "shell"
command = '''echo '{"decision": "proceed", "additional_context": "HOOKLINE-CONTEXT: the build is green"}' '''
`;

/** The guard config with a syntax error: the bridge must refuse guarded calls. */
export const BROKEN_GUARDS = `${GUARDS}\n[[hooks]\nevent = "pre_tool_use"\n`;
