#!/bin/sh
# run_failed (non-blocking): tell the team. A real hook would post to chat; this one appends to the
# outbox file the demo host names in $DEMO_OUTBOX, and the host prints it.
reason=$(sed -n 's/.*"failure_reason":"\([^"]*\)".*/\1/p' "$ARC_HOOK_CONTEXT")
printf '%s\n' "run $ARC_RUN_ID of $ARC_WORKFLOW failed: $reason" >> "${DEMO_OUTBOX:-/dev/null}"
