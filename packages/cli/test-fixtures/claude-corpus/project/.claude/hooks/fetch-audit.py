#!/usr/bin/env python3
"""PreToolUse (WebFetch): an audit hook with a bug — it reads a key the input does not have, so
Python exits 1 with a traceback. Claude Code lets the call through; Hookline reports the crash."""
import json
import sys

data = json.load(sys.stdin)
print(data["tool_input"]["headers"]["User-Agent"])
