import { JOURNAL_INTERFACE_VERSION, type Journal, type JournalEntry, type JournalRecord } from '../plugins/journal.ts';
import type { ConformanceCase } from './runner-conformance.ts';
import { canonicalJson } from '../plugins/journal-seal.ts';

/** What the journal suite tests. */
export interface JournalConformanceOptions {
  /**
   * Makes a fresh, empty journal for one case; the case closes it. `settings.maxAttempts` is given by
   * the dead-letter case (for journals that implement `doRetry`): pass it to the journal's own setting.
   */
  create(settings?: JournalCaseSettings): Journal | Promise<Journal>;
  /**
   * How long the timing cases wait beyond a lease (default 250 ms). Leases in the suite are a few
   * hundred milliseconds, so a loaded machine may need more.
   */
  readonly slackMs?: number;
  /**
   * The pid of the process running the suite (`process.pid`), for journals that record process
   * groups: the case that attaches it checks that its identity is recorded, sealed, and that
   * `doEndProcessGroups` refuses to signal it (a journal must never end its own process).
   */
  readonly ownPid?: number;
}

/** What a case asks of the journal it creates. */
export interface JournalCaseSettings {
  /** Claims an entry may take before it is dead-lettered. */
  readonly maxAttempts?: number;
}

/**
 * The contract every {@link Journal} proves by passing, in one process: recording, claiming oldest
 * first, ownership, lease expiry and renewal, release with a last error and a retry time, attempts,
 * and that concurrent claims never hand out one entry twice. Cross-process behaviour (a dead
 * holder's entries, two processes claiming) is the implementation's to test with real processes.
 *
 * ```ts
 * for (const check of journalConformanceCases({ create: () => sqliteJournal({ path: fresh() }) })) test(check.name, check.run);
 * ```
 */
export function journalConformanceCases(options: JournalConformanceOptions): ConformanceCase[] {
  const slack = options.slackMs ?? 250;
  const withJournal =
    (body: (journal: Journal) => Promise<void>, settings?: JournalCaseSettings) => async (): Promise<void> => {
      const journal = await options.create(settings);
      try {
        await body(journal);
      } finally {
        await journal.doClose?.();
      }
    };
  const record = (event: string, extra: Record<string, unknown> = {}): JournalRecord => ({
    preset: 'task',
    event,
    context: { event, task: `task-${event}`, ...extra },
    hooks: [`${event}-01`, `${event}-02`],
  });

  return [
    {
      name: 'journal: declares the interface version and a name',
      run: withJournal(async (journal) => {
        assert(
          journal.journalInterfaceVersion === JOURNAL_INTERFACE_VERSION,
          `journalInterfaceVersion is ${String(journal.journalInterfaceVersion)}`,
        );
        assert(typeof journal.name === 'string' && journal.name !== '', 'name must say what the journal is');
        assert(
          typeof journal.scope === 'string' && journal.scope !== '',
          'scope must name the store that seals bind to',
        );
      }),
    },
    {
      name: 'journal: a recorded entry is held by its recorder, with attempts 1 and its context intact',
      run: withJournal(async (journal) => {
        const before = Date.now();
        const context = {
          event: 'after_merge',
          task: 't-1',
          note: 'ünïcode ✓ 😀',
          nested: { list: [1, null, true], empty: {} },
        };
        const id = await journal.doRecord(
          { preset: 'task', event: 'after_merge', context, hooks: ['after_merge-01'] },
          'owner-a',
          10_000,
        );
        assert(typeof id === 'string' && id !== '', `the id is a non-empty string, got ${JSON.stringify(id)}`);
        const entries = await journal.list();
        assert(entries.length === 1, `one entry, got ${entries.length}`);
        const entry = entries[0]!;
        assert(
          entry.id === id && entry.preset === 'task' && entry.event === 'after_merge',
          `entry: ${JSON.stringify(entry)}`,
        );
        assert(
          JSON.stringify(entry.context) === JSON.stringify(context),
          `the context round-trips: ${JSON.stringify(entry.context)}`,
        );
        assert(JSON.stringify(entry.hooks) === '["after_merge-01"]', `hooks: ${JSON.stringify(entry.hooks)}`);
        assert(
          entry.attempts === 1 && entry.owner === 'owner-a' && entry.lastError === undefined,
          `attempts/owner/lastError: ${JSON.stringify(entry)}`,
        );
        assert(
          entry.createdAt >= before - 1_000 && entry.createdAt <= Date.now() + 1_000,
          `createdAt ${entry.createdAt}`,
        );
        assert((entry.leaseExpiresAt ?? 0) > Date.now(), 'the lease runs');
      }),
    },
    {
      name: 'journal: a held entry is not claimed; released entries are claimed oldest first, each once',
      run: withJournal(async (journal) => {
        const first = await journal.doRecord(record('after_merge'), 'a', 10_000);
        const second = await journal.doRecord(record('after_fail'), 'a', 10_000);
        assert(first !== second, 'ids are unique');
        assert((await journal.doClaim('b', 10_000)) === undefined, 'entries held by a are not claimable');
        assert(await journal.doRelease(second, 'a', 'second stopped'), 'the holder may release');
        assert(await journal.doRelease(first, 'a', 'first stopped'), 'the holder may release');
        const claimed = await journal.doClaim('b', 10_000);
        assert(claimed?.id === first, `the oldest comes first, got ${JSON.stringify(claimed)}`);
        assert(
          claimed.attempts === 2 && claimed.owner === 'b' && claimed.lastError === 'first stopped',
          `a claim counts an attempt and keeps the last error: ${JSON.stringify(claimed)}`,
        );
        const next = await journal.doClaim('c', 10_000);
        assert(next?.id === second, `then the next, got ${JSON.stringify(next)}`);
        assert((await journal.doClaim('d', 10_000)) === undefined, 'nothing is left to claim');
        const listed = await journal.list();
        assert(
          listed.map((entry) => entry.id).join() === [first, second].join(),
          `list is oldest first: ${listed.map((entry) => entry.id).join()}`,
        );
      }),
    },
    {
      name: 'journal: only the holder renews, completes or releases an entry',
      run: withJournal(async (journal) => {
        const id = await journal.doRecord(record('after_merge'), 'a', 10_000);
        assert(!(await journal.doRenew(id, 'b', 10_000)), 'another owner cannot renew');
        assert(!(await journal.doComplete(id, 'b')), 'another owner cannot complete');
        assert(!(await journal.doRelease(id, 'b', 'x')), 'another owner cannot release');
        const [entry] = await journal.list();
        assert(entry?.owner === 'a' && entry.lastError === undefined, `nothing changed: ${JSON.stringify(entry)}`);
        assert(await journal.doRenew(id, 'a', 10_000), 'the holder renews');
        assert(await journal.doComplete(id, 'a'), 'the holder completes');
        assert((await journal.list()).length === 0, 'a completed entry is gone');
        assert(!(await journal.doComplete(id, 'a')), 'completing twice does nothing');
        assert(!(await journal.doRenew('no-such-id', 'a', 10_000)), 'an unknown id is not renewed');
      }),
    },
    {
      name: 'journal: an expired lease lets another engine claim the entry, and the old holder loses it',
      run: withJournal(async (journal) => {
        const id = await journal.doRecord(record('after_merge'), 'a', 100);
        assert((await journal.doClaim('b', 10_000)) === undefined, 'not before the lease ends');
        await delay(100 + slack);
        const claimed = await journal.doClaim('b', 10_000);
        assert(
          claimed?.id === id && claimed.attempts === 2 && claimed.owner === 'b',
          `claimed after expiry: ${JSON.stringify(claimed)}`,
        );
        assert(!(await journal.doRenew(id, 'a', 10_000)), 'the old holder cannot renew');
        assert(!(await journal.doComplete(id, 'a')), 'the old holder cannot complete');
        assert(await journal.doComplete(id, 'b'), 'the new holder completes');
      }),
    },
    {
      name: 'journal: renewing keeps an entry held past its first lease',
      run: withJournal(async (journal) => {
        const lease = 2 * slack;
        const id = await journal.doRecord(record('after_merge'), 'a', lease);
        for (let round = 0; round < 3; round++) {
          await delay(lease / 2);
          assert(await journal.doRenew(id, 'a', lease), `renewal ${round + 1} keeps the entry`);
          assert(
            (await journal.doClaim('b', 10_000)) === undefined,
            `still held after ${(round + 1) * (lease / 2)} ms`,
          );
        }
        await delay(lease + slack);
        assert((await journal.doClaim('b', 10_000))?.id === id, 'claimable once renewals stop and the lease ends');
      }),
    },
    {
      name: 'journal: a release with a retry delay hides the entry until then',
      run: withJournal(async (journal) => {
        const id = await journal.doRecord(record('after_merge'), 'a', 10_000);
        assert(await journal.doRelease(id, 'a', 'not mine to run', 2 * slack), 'released');
        const [entry] = await journal.list();
        assert(
          entry !== undefined && entry.owner === undefined && entry.lastError === 'not mine to run',
          `released and kept: ${JSON.stringify(entry)}`,
        );
        assert((await journal.doClaim('b', 10_000)) === undefined, 'not claimable before its retry time');
        await delay(3 * slack);
        assert((await journal.doClaim('b', 10_000))?.id === id, 'claimable after its retry time');
      }),
    },
    {
      name: 'journal: concurrent claims never hand out one entry twice',
      run: withJournal(async (journal) => {
        const ids = await Promise.all(
          Array.from({ length: 10 }, (_, index) => journal.doRecord(record(`e${index}`), 'a', 10_000)),
        );
        await Promise.all(ids.map((id) => journal.doRelease(id, 'a', 'handed over')));
        const claims = await Promise.all(
          Array.from({ length: 20 }, (_, index) => journal.doClaim(`owner-${index}`, 10_000)),
        );
        const got = claims.filter((claim): claim is JournalEntry => claim !== undefined).map((claim) => claim.id);
        assert(
          got.length === 10 && new Set(got).size === 10,
          `ten distinct entries for twenty claimants, got ${JSON.stringify(got)}`,
        );
      }),
    },
    {
      name: 'journal: an entry taken maxAttempts times without being cleared is dead-lettered, listed, and retried on demand (journals with doRetry)',
      run: withJournal(
        async (journal) => {
          if (journal.doRetry === undefined) return;
          const id = await journal.doRecord(record('after_merge'), 'a', 10_000);
          assert(await journal.doRelease(id, 'a', 'crashed once'), 'released after attempt 1');
          const second = await journal.doClaim('b', 10_000);
          assert(second?.id === id && second.attempts === 2, `attempt 2: ${JSON.stringify(second)}`);
          assert(await journal.doRelease(id, 'b', 'crashed twice'), 'released after attempt 2');
          assert((await journal.doClaim('c', 10_000)) === undefined, 'an entry that used its attempts is not claimed');
          const [dead] = await journal.list();
          assert(
            dead?.id === id && dead.deadLetteredAt !== undefined && dead.owner === undefined,
            `listed as dead-lettered: ${JSON.stringify(dead)}`,
          );
          assert(
            (dead.lastError ?? '').includes('crashed twice'),
            `the last error is kept: ${JSON.stringify(dead.lastError)}`,
          );
          assert(!(await journal.doRetry('no-such-id')), 'an unknown id is not retried');
          assert(await journal.doRetry(id), 'a dead-lettered entry is retried');
          assert(!(await journal.doRetry(id)), 'a pending entry is not retried again');
          const again = await journal.doClaim('d', 10_000);
          assert(
            again?.id === id && again.attempts === 1 && again.deadLetteredAt === undefined,
            `claimable again with fresh attempts: ${JSON.stringify(again)}`,
          );
          assert(await journal.doComplete(id, 'd'), 'and completed');
        },
        { maxAttempts: 2 },
      ),
    },
    {
      name: 'journal: list narrows by state and limit, and stats counts the same states (journals with stats)',
      run: withJournal(
        async (journal) => {
          const leased = await journal.doRecord(record('e-leased'), 'a', 60_000);
          const pending = await journal.doRecord(record('e-pending'), 'a', 60_000);
          assert(await journal.doRelease(pending, 'a', 'handed over', 60_000), 'released with a retry time');
          let dead: string | undefined;
          if (journal.doRetry !== undefined) {
            dead = await journal.doRecord(record('e-dead'), 'a', 60_000);
            assert(await journal.doRelease(dead, 'a', 'crashed'), 'released after attempt 1');
            assert((await journal.doClaim('b', 60_000))?.id === dead, 'claimed for attempt 2');
            assert(await journal.doRelease(dead, 'b', 'crashed again'), 'released after attempt 2');
            assert((await journal.doClaim('c', 60_000)) === undefined, 'dead-lettered, not claimed');
          }
          // Recorded last: on a slow machine its short lease could otherwise lapse before the claims above.
          const lapsed = await journal.doRecord(record('e-lapsed'), 'a', 100);
          await delay(100 + slack);
          const ids = async (query?: Parameters<Journal['list']>[0]): Promise<string> =>
            (await journal.list(query)).map((entry) => entry.id).join();
          assert((await ids({ state: 'leased' })) === leased, `leased: ${await ids({ state: 'leased' })}`);
          assert(
            (await ids({ state: 'pending' })) === [pending, lapsed].join(),
            `pending (released, or its lease ended): ${await ids({ state: 'pending' })}`,
          );
          assert(
            (await ids({ state: 'dead-lettered' })) === (dead ?? ''),
            `dead-lettered: ${await ids({ state: 'dead-lettered' })}`,
          );
          assert((await ids({ limit: 2 })) === [leased, pending].join(), `the oldest two: ${await ids({ limit: 2 })}`);
          assert(
            (await ids({ state: 'pending', limit: 1 })) === pending,
            `the oldest pending: ${await ids({ state: 'pending', limit: 1 })}`,
          );
          assert(
            (await ids()) === [leased, pending, ...(dead === undefined ? [] : [dead]), lapsed].join(),
            `everything: ${await ids()}`,
          );
          if (journal.stats === undefined) return;
          const before = Date.now();
          const stats = await journal.stats();
          const [oldest] = await journal.list({ limit: 1 });
          assert(
            stats.pending === 2 &&
              stats.leased === 1 &&
              stats.deadLettered === (dead === undefined ? 0 : 1) &&
              stats.highestAttempts === 1,
            `counts: ${JSON.stringify(stats)}`,
          );
          assert(
            stats.oldestCreatedAt === oldest?.createdAt,
            `the oldest is the first entry: ${JSON.stringify(stats)}`,
          );
          assert(Math.abs(stats.now - before) < 60_000, `now is the journal's clock: ${JSON.stringify(stats)}`);
        },
        { maxAttempts: 2 },
      ),
    },
    {
      name: 'journal: an idle waiter wakes when an entry is recorded without a lease or released, and stops on its signal (journals with doWaitForWork)',
      run: withJournal(async (journal) => {
        if (journal.doWaitForWork === undefined) return;
        assert(
          (await journal.doWaitForWork(30_000)) === true,
          'the first wait returns at once: it cannot know what it missed',
        );
        const recorded = journal.doWaitForWork(30_000);
        const forOthers = await journal.doRecord(record('after_merge'), 'a', 0);
        assert((await recorded) === true, 'an entry recorded for others to run (no lease) wakes the waiter');
        assert((await journal.doClaim('b', 60_000))?.id === forOthers, 'and the waiter can claim it');
        // Whatever was counted since is drained, so only the release can end the next wait.
        await journal.doWaitForWork(0);
        const released = journal.doWaitForWork(30_000);
        assert(await journal.doRelease(forOthers, 'b', 'handed over'), 'released');
        assert((await released) === true, 'a released entry wakes the waiter');
        const stop = new AbortController();
        stop.abort();
        assert((await journal.doWaitForWork(30_000, stop.signal)) === false, 'an aborted signal ends the wait');
        const later = new AbortController();
        const waiting = journal.doWaitForWork(30_000, later.signal);
        later.abort();
        assert((await waiting) === false, 'aborting ends a wait in progress');
      }),
    },
    {
      name: 'journal: only the holder records a process group in an entry (journals with doAttachProcess)',
      run: withJournal(async (journal) => {
        if (journal.doAttachProcess === undefined) return;
        assert(
          journal.doEndProcessGroups !== undefined,
          'a journal that records process groups must end them too (doEndProcessGroups)',
        );
        const sealer = async (): Promise<string> => 'v1.group';
        const id = await journal.doRecord(record('after_merge'), 'a', 10_000);
        assert(
          !(await journal.doAttachProcess(id, 'b', 2_147_483_000, sealer)),
          'another owner cannot attach a process',
        );
        assert(
          !(await journal.doAttachProcess('no-such-id', 'a', 2_147_483_000, sealer)),
          'nor can anyone to an unknown id',
        );
        assert(
          await journal.doAttachProcess(id, 'a', 2_147_483_000, sealer),
          'the holder may (a process that is gone leaves nothing to record)',
        );
        assert(await journal.doComplete(id, 'a'), 'the entry completes as usual');
      }),
    },
    {
      name: 'journal: an attached group is recorded with its identity and seal, handed to the next claimant unsignalled, and never this process (journals with doAttachProcess)',
      run: withJournal(async (journal) => {
        if (
          journal.doAttachProcess === undefined ||
          journal.doEndProcessGroups === undefined ||
          options.ownPid === undefined
        )
          return;
        const id = await journal.doRecord({ ...record('after_merge'), seal: 'v1.entry' }, 'a', 10_000);
        const sealed: unknown[] = [];
        assert(
          await journal.doAttachProcess(id, 'a', options.ownPid, async (group) => {
            sealed.push(group);
            return 'v1.group';
          }),
          'the holder attaches a live process',
        );
        assert(await journal.doRelease(id, 'a', 'crashed'), 'released');
        const claimed = await journal.doClaim('b', 10_000);
        const group = claimed?.processGroups?.[0];
        assert(claimed?.seal === 'v1.entry', `the entry's seal comes back: ${JSON.stringify(claimed)}`);
        assert(
          group !== undefined &&
            group.pid === options.ownPid &&
            group.host !== '' &&
            /^\d+$/.test(group.start) &&
            group.seal === 'v1.group',
          `the group comes back with host, pid, start time and seal: ${JSON.stringify(claimed?.processGroups)}`,
        );
        assert(
          JSON.stringify(sealed) === JSON.stringify([{ host: group.host, pid: group.pid, start: group.start }]),
          `the sealer got what was recorded: ${JSON.stringify(sealed)}`,
        );
        const warnings = await journal.doEndProcessGroups(id, 'b', [group]);
        assert(
          warnings.length === 1,
          `the journal refuses to signal its own process, and says so: ${JSON.stringify(warnings)}`,
        );
        assert((await journal.list())[0]?.processGroups === undefined, 'the groups are forgotten once handled');
        assert(await journal.doComplete(id, 'b'), 'and the entry completes');
      }),
    },
    {
      name: 'journal: a seal round-trips; doDeadLetter gives up a held entry at once, and doRetry can replace its seal',
      run: withJournal(
        async (journal) => {
          const id = await journal.doRecord({ ...record('after_merge'), seal: 'v1.first' }, 'a', 10_000);
          assert((await journal.list())[0]?.seal === 'v1.first', 'the seal is listed');
          assert(!(await journal.doDeadLetter(id, 'b', 'not yours')), 'only the holder dead-letters');
          assert(await journal.doDeadLetter(id, 'a', 'refused: its seal does not verify'), 'the holder dead-letters');
          const [dead] = await journal.list();
          assert(
            dead?.deadLetteredAt !== undefined &&
              dead.owner === undefined &&
              dead.lastError === 'refused: its seal does not verify',
            `dead-lettered with the reason: ${JSON.stringify(dead)}`,
          );
          assert((await journal.doClaim('c', 10_000)) === undefined, 'a dead letter is not claimed');
          if (journal.doRetry === undefined) return;
          assert(await journal.doRetry(id, { seal: 'v1.vouched' }), 'retried with a new seal');
          const again = await journal.doClaim('d', 10_000);
          assert(
            again?.id === id && again.seal === 'v1.vouched',
            `claimable with the new seal: ${JSON.stringify(again)}`,
          );
        },
        { maxAttempts: 5 },
      ),
    },
    {
      name: 'journal: doRecordAttempts keeps attempts, retries an entry with fresh claims or dead-letters it; doPurge and disabled targets (journals with them)',
      run: withJournal(
        async (journal) => {
          if (journal.doRecordAttempts === undefined) return;
          const id = await journal.doRecord(record('after_merge'), 'a', 10_000);
          const first = {
            hook: 'notify',
            target: 'https://example.test/hook',
            at: 1_000,
            outcome: 'retry',
            status: 'failed',
            httpStatus: 503,
            durationMs: 12.5,
            error: 'answered 503',
          } as const;
          assert(
            !(await journal.doRecordAttempts(id, 'b', [first], { retryAfterMs: 0, error: 'not yours' })),
            'only the holder records attempts',
          );
          assert(
            await journal.doRecordAttempts(id, 'a', [first], { retryAfterMs: 60_000, error: '"notify": answered 503' }),
            'the holder records attempts',
          );
          assert((await journal.doClaim('b', 10_000)) === undefined, 'not claimable before its retry time');
          const [waiting] = await journal.list();
          assert(
            waiting !== undefined &&
              waiting.owner === undefined &&
              waiting.lastError === '"notify": answered 503' &&
              waiting.deadLetteredAt === undefined,
            `released with the error: ${JSON.stringify(waiting)}`,
          );
          // Key order may change (PostgreSQL's jsonb sorts keys); nothing else may.
          assert(
            canonicalJson(waiting.deliveries) === canonicalJson([first]),
            `the attempt is kept as given: ${JSON.stringify(waiting.deliveries)}`,
          );
          const again = await journal.doRecord(record('after_fail'), 'a', 10_000);
          assert(
            await journal.doRecordAttempts(again, 'a', [first], { retryAfterMs: 0, error: 'again' }),
            'retry at once',
          );
          const claimed = await journal.doClaim('b', 10_000);
          assert(
            claimed?.id === again && claimed.attempts === 1,
            `claimable at once, its claims counted afresh: ${JSON.stringify(claimed)}`,
          );
          const second = { ...first, at: 2_000, outcome: 'dead', httpStatus: 410, error: 'answered 410 Gone' } as const;
          assert(
            await journal.doRecordAttempts(again, 'b', [second], {
              deadLetter: '"notify" given up: answered 410 Gone',
            }),
            'dead-lettered with its attempts',
          );
          const dead = (await journal.list({ state: 'dead-lettered' }))[0];
          assert(
            dead?.id === again &&
              dead.lastError === '"notify" given up: answered 410 Gone' &&
              dead.deliveries?.length === 2,
            `dead with both attempts: ${JSON.stringify(dead)}`,
          );
          if (journal.doPurge !== undefined) {
            assert((await journal.doPurge(Date.now() - 60_000)) === 0, 'nothing dead-lettered before a minute ago');
            assert((await journal.doPurge(Date.now() + 1_000)) === 1, 'the dead letter is purged');
            assert((await journal.list()).map((entry) => entry.id).join() === id, 'only the pending entry is left');
          }
          if (
            journal.doDisableTarget !== undefined &&
            journal.doEnableTarget !== undefined &&
            journal.disabledTargets !== undefined
          ) {
            await journal.doDisableTarget('https://example.test/hook', 'answered 410 Gone');
            await journal.doDisableTarget('https://example.test/hook', 'again');
            const [target, ...more] = await journal.disabledTargets();
            assert(
              target?.target === 'https://example.test/hook' &&
                target.reason === 'answered 410 Gone' &&
                more.length === 0,
              `disabled once, with the first reason: ${JSON.stringify(target)}`,
            );
            assert(await journal.doEnableTarget('https://example.test/hook'), 're-enabled');
            assert(!(await journal.doEnableTarget('https://example.test/hook')), 'not disabled any more');
            assert((await journal.disabledTargets()).length === 0, 'none left');
          }
        },
        { maxAttempts: 5 },
      ),
    },
  ];
}

function assert(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(`journal conformance: ${message}`);
}

function delay(milliseconds: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, milliseconds));
}
