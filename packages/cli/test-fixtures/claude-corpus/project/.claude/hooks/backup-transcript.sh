#!/usr/bin/env bash
# PreCompact (auto): keep a copy of the transcript before it is compacted.
transcript=$(python3 -c 'import json,sys; print(json.load(sys.stdin)["transcript_path"])')
mkdir -p "$CLAUDE_PROJECT_DIR/.claude/backups"
cp "$transcript" "$CLAUDE_PROJECT_DIR/.claude/backups/"
echo "backed up $(basename "$transcript")"
