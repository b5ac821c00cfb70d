#!/usr/bin/env node
// PostToolUse (Write|Edit): a formatter check that sends the model back to fix tabs.
import { readFileSync } from 'node:fs';
const input = JSON.parse(readFileSync(0, 'utf8'));
const content = input.tool_input.content ?? input.tool_input.new_string ?? '';
if (content.includes('\t')) {
  console.log(JSON.stringify({ decision: 'block', reason: `${input.tool_input.file_path} uses tabs; this project indents with spaces` }));
} else {
  console.log(JSON.stringify({ suppressOutput: true, hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: `formatted ${input.tool_input.file_path}` } }));
}
