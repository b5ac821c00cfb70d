#!/bin/sh
# stage_start of build: skip the stage when the host says its inputs did not change.
# The context arrives as compact JSON on stdin (and in the file $ARC_HOOK_CONTEXT).
context=$(cat)
case $context in
  *'"inputs_changed":false'*)
    printf '%s\n' '{"decision":"skip","reason":"build cache is fresh (inputs unchanged)"}' ;;
esac
