/**
 * Labels every container of the docker sandbox carries. `dev.hookline.sandbox` marks it as ours; the
 * owner labels say which process on which machine (and which boot of it) created it, so a later
 * provider can tell a leftover of a crashed process from a container that a live process still uses.
 */
export const LABELS = {
  /** Provider marker; always `docker`. */
  sandbox: 'dev.hookline.sandbox',
  /** The run the container belongs to (`run_id`). */
  runId: 'dev.hookline.run-id',
  /** Process id of the Hookline process that created it. */
  ownerPid: 'dev.hookline.owner-pid',
  /** Host name of the owner's machine. */
  ownerHost: 'dev.hookline.owner-host',
  /** Boot id of the owner's machine (Linux `/proc/sys/kernel/random/boot_id`, else the boot time). */
  ownerBoot: 'dev.hookline.owner-boot',
  /** The owner's start time, so a reused process id is not mistaken for the owner. */
  ownerStart: 'dev.hookline.owner-start',
} as const;

/** The value of the provider marker label. */
export const SANDBOX_MARKER = 'docker';
