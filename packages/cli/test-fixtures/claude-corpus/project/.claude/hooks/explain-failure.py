#!/usr/bin/env python3
"""PostToolUseFailure (Bash): give the model a hint about the failure."""
import json
import sys

data = json.load(sys.stdin)
hint = "the test database is not running; start it with `make db`" if "ECONNREFUSED" in data.get("error", "") else "no hint"
json.dump({"hookSpecificOutput": {"hookEventName": "PostToolUseFailure", "additionalContext": hint}}, sys.stdout)
