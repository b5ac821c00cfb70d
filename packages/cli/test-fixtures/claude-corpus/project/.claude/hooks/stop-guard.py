#!/usr/bin/env python3
"""Stop: keep the agent working until it has run the tests — but never loop: when the stop hook is
already active, let it stop."""
import json
import sys

data = json.load(sys.stdin)
if data.get("stop_hook_active"):
    sys.exit(0)
print(json.dumps({"decision": "block", "reason": "Run the test suite before finishing."}))
