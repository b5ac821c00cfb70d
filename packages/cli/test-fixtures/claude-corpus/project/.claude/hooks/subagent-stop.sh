#!/usr/bin/env bash
# SubagentStop: a subagent must leave a summary file behind before it may stop.
if [ ! -f "$CLAUDE_PROJECT_DIR/.claude/summary.md" ]; then
  echo "Write .claude/summary.md with your findings before stopping" >&2
  exit 2
fi
