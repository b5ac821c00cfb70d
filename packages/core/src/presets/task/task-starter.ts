/**
 * The `hookline.toml` that `hookline init --preset task` writes: three `after_merge`
 * lines that delete the task's remote branch, its worktree and its local branch — each safe to run
 * twice, since a durable point may run again after a crash — and commented notification lines for
 * `after_awaiting_human` that send only the repository's name, the task id and the phase.
 */
export function taskStarter(remote: string): string {
  return `# Hookline configuration for a task runner's hook points (preset "task").
#   hookline validate                                     check this file
#   hookline emit after_merge --set task=t-1 --set branch=work/t-1 --set worktree=$PWD/wt/t-1
# Points: after_merge, after_fail, after_rework, after_awaiting_human, after_proposed. Each is a list
# of shell lines run in order with \`sh -c\`, after the task moved; a failing line is a warning and the
# next one still runs. Lines get ARC_TASK, ARC_PLAN, ARC_ATTEMPT, ARC_BRANCH, ARC_WORKTREE,
# ARC_TARGET_BRANCH, ARC_MERGED_SHA, ARC_STATE and ARC_HOOK; output goes to runs/<task>/hooks/.
# Points are durable: one that a crash interrupted runs again, so every line must be safe to run twice.
preset = "task"

[hooks]
after_merge = [
  # The task's branch on ${remote}, unless it is gone already (ls-remote exits 2 for no match).
  ': "\${ARC_BRANCH:?}"; git ls-remote --exit-code --heads ${remote} "refs/heads/$ARC_BRANCH" >/dev/null; found=$?; [ $found = 2 ] || { [ $found = 0 ] && git push --quiet ${remote} --delete "$ARC_BRANCH"; }',
  # Its worktree; if the folder is already gone, only git's record of it.
  ': "\${ARC_WORKTREE:?}"; if [ -e "$ARC_WORKTREE" ]; then git worktree remove --force "$ARC_WORKTREE"; else git worktree prune; fi',
  # Its local branch, unless it is gone already. Delete a line to keep what it removes.
  ': "\${ARC_BRANCH:?}"; ! git show-ref --verify --quiet "refs/heads/$ARC_BRANCH" || git branch -D --quiet "$ARC_BRANCH"',
]

# A phone notification when a task waits for a person. They send only the repository's name, the
# task id and the phase: no transcript, command text, model, usage or cost. Uncomment one.
# after_awaiting_human = [
#   # ntfy: pick a topic nobody can guess.
#   'curl -fsS -H "Title: $(basename "$(git rev-parse --show-toplevel)")" -d "task $ARC_TASK: $ARC_STATE" https://ntfy.sh/YOUR-TOPIC',
#   # Bark (iOS): the device key in $BARK_KEY.
#   'curl -fsS -H "content-type: application/json" -d "{\\"title\\": \\"$(basename "$(git rev-parse --show-toplevel)")\\", \\"body\\": \\"task $ARC_TASK: $ARC_STATE\\"}" "https://api.day.app/$BARK_KEY"',
# ]
# after_fail and after_proposed are the other points a notification usually watches.
`;
}
