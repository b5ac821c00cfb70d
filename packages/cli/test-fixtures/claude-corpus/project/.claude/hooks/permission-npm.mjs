#!/usr/bin/env node
// PermissionRequest (Bash): answer the dialog for the user: npm test is fine (and made quiet),
// anything with sudo is refused.
import { readFileSync } from 'node:fs';
const input = JSON.parse(readFileSync(0, 'utf8'));
const command = input.tool_input.command;
let decision;
if (command.startsWith('npm test')) decision = { behavior: 'allow', updatedInput: { command: `${command} --silent` } };
else if (command.includes('sudo')) decision = { behavior: 'deny', message: 'sudo is never approved automatically' };
if (decision !== undefined) process.stdout.write(JSON.stringify({ hookSpecificOutput: { hookEventName: 'PermissionRequest', decision } }));
