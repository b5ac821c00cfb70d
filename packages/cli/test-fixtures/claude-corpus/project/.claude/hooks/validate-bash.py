#!/usr/bin/env python3
"""PreToolUse (Bash): the command validator from the hooks reference's examples, in spirit:
suggest better tools, exit 2 with the reasons on stderr so the model sees them."""
import json
import re
import sys

RULES = [
    (r"^grep\b(?!.*\|)", "Use 'rg' (ripgrep) instead of 'grep' for better performance and features"),
    (r"^find\s+\S+\s+-name\b", "Use 'rg --files -g pattern' instead of 'find -name' for better performance"),
]

try:
    data = json.load(sys.stdin)
except json.JSONDecodeError as error:
    print(f"Error: Invalid JSON input: {error}", file=sys.stderr)
    sys.exit(1)

if data.get("tool_name") != "Bash":
    sys.exit(0)
command = data.get("tool_input", {}).get("command", "")
issues = [message for pattern, message in RULES if re.search(pattern, command)]
if issues:
    for message in issues:
        print(f"• {message}", file=sys.stderr)
    sys.exit(2)
sys.exit(0)
