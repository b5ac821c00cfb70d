#!/usr/bin/env node
// PreToolUse (mcp__.*): approve MCP memory reads without a prompt and force a read-only flag.
let raw = '';
for await (const chunk of process.stdin) raw += chunk;
const input = JSON.parse(raw);
if (input.tool_name.startsWith('mcp__memory__')) {
  console.log(JSON.stringify({
    hookSpecificOutput: {
      hookEventName: 'PreToolUse',
      permissionDecision: 'allow',
      permissionDecisionReason: 'memory reads are safe',
      updatedInput: { ...input.tool_input, readonly: true },
    },
  }));
}
