#!/bin/sh
# stage_start of deploy: a change freeze blocks it. Exit 2 = block, with the reason on stdout.
printf '%s\n' '{"decision":"block","reason":"production deploys are frozen until the release sign-off"}'
exit 2
