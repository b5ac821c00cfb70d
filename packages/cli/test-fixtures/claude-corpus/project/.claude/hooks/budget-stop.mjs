#!/usr/bin/env node
// PreToolUse (Task): stop the session when subagents are not allowed, telling the user why.
import { readFileSync } from 'node:fs';
const input = JSON.parse(readFileSync(0, 'utf8'));
console.log(JSON.stringify({
  continue: false,
  stopReason: `subagent "${input.tool_input.subagent_type}" needs a budget approval`,
  systemMessage: 'Session stopped by the budget hook',
}));
