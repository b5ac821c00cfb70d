#!/usr/bin/env bash
# SessionEnd: record why the session ended.
jq -r '"\(.session_id) \(.reason)"' >> "$CLAUDE_PROJECT_DIR/.claude/sessions.log"
