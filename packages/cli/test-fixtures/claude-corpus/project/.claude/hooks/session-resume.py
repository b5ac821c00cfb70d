#!/usr/bin/env python3
"""SessionStart (resume): the JSON form of added context."""
import json
import sys

data = json.load(sys.stdin)
print(json.dumps({"hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": f"Resumed session {data['session_id']}"}}))
