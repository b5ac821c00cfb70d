#!/usr/bin/env bash
# PreToolUse (Read): a guard that crashes (a missing helper); its settings entry says on_error: block.
set -euo pipefail
source "$CLAUDE_PROJECT_DIR/.claude/hooks/lib/missing-helper.sh"
exit 0
