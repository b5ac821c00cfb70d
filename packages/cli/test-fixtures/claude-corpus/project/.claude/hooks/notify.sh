#!/usr/bin/env bash
# Notification: log every notification; an idle prompt also tells the user (exit 2: stderr is shown).
input=$(cat)
type=$(printf '%s' "$input" | jq -r '.notification_type')
printf '%s\n' "$type" >> "$CLAUDE_PROJECT_DIR/.claude/notifications.log"
if [ "$type" = "idle_prompt" ]; then
  echo "Claude is waiting for your input" >&2
  exit 2
fi
