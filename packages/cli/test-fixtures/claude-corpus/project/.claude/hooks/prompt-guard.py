#!/usr/bin/env python3
"""UserPromptSubmit: refuse prompts that carry a secret (JSON decision block); otherwise add the
branch name as plain stdout, which the model gets as context."""
import json
import re
import sys

data = json.load(sys.stdin)
prompt = data.get("prompt", "")
if re.search(r"(?i)\b(password|api[_-]?key)\s*[:=]", prompt):
    print(json.dumps({"decision": "block", "reason": "Your prompt seems to contain a secret; remove it and try again."}))
    sys.exit(0)
print("Current branch: main (from the prompt hook)")
