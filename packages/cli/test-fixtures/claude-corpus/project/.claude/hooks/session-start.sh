#!/usr/bin/env bash
# SessionStart (startup): plain stdout becomes context for the model.
echo "Project: $(basename "$CLAUDE_PROJECT_DIR")"
echo "Open TODOs: 3"
