#!/usr/bin/env bash
# PreToolUse (Bash): refuse recursive force deletes. The bash + jq shape most guards are written in.
set -euo pipefail
command=$(jq -r '.tool_input.command // empty')
if echo "$command" | grep -Eq 'rm[[:space:]]+-[a-zA-Z]*r[a-zA-Z]*f|rm[[:space:]]+-[a-zA-Z]*f[a-zA-Z]*r'; then
  echo "Blocked: 'rm -rf' is not allowed in this project ($command)" >&2
  exit 2
fi
exit 0
