#!/usr/bin/env python3
"""PreToolUse (Edit|Write): deny writes to secrets, ask before touching files outside the project,
answering with hookSpecificOutput JSON on stdout and exit 0."""
import json
import os
import sys

data = json.load(sys.stdin)
path = data["tool_input"].get("file_path", "")
project = os.environ["CLAUDE_PROJECT_DIR"]


def answer(decision, reason):
    print(json.dumps({
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": decision,
            "permissionDecisionReason": reason,
        }
    }))
    sys.exit(0)


if os.path.basename(path).startswith(".env"):
    answer("deny", f"{os.path.basename(path)} holds secrets and must not be written")
if not os.path.abspath(path).startswith(project + os.sep):
    answer("ask", f"{path} is outside the project")
sys.exit(0)
