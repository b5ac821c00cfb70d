#!/usr/bin/env node
// SubagentStart (Explore): brief the subagent.
import { readFileSync } from 'node:fs';
const input = JSON.parse(readFileSync(0, 'utf8'));
console.log(JSON.stringify({ hookSpecificOutput: { hookEventName: 'SubagentStart', additionalContext: `You are ${input.agent_id}; stay read-only.` } }));
