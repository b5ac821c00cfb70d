import type { AgentAdapter, AgentCall, SettingsCommand } from '@hookline/core';
import type { DoctorReport } from '../bridge/run-bridged-event.ts';
import { commandDeadlineMs } from './bridge-command-line.ts';
import type { EntryResult } from './run-entry-command.ts';

/** One thing `hookline doctor` found: fine, or a reason hooks would not fire (with what to do). */
export interface Finding {
  readonly ok: boolean;
  readonly text: string;
}

/** What the guard entry's run says about the bridge: does it start, answer in time and in a form the agent reads? */
export function diagnoseRun(run: {
  readonly adapter: AgentAdapter;
  readonly call: AgentCall;
  readonly entry: SettingsCommand;
  readonly result: EntryResult;
  readonly report: DoctorReport | undefined;
}): Finding[] {
  const { adapter, call, entry, result, report } = run;
  const findings: Finding[] = [];
  const timeout = entry.timeoutSeconds;
  const deadlineMs = commandDeadlineMs(entry.command) ?? adapter.bridgeDeadlineMs;
  if (timeout !== undefined && timeout * 1000 <= deadlineMs)
    findings.push({
      ok: false,
      text: `the entry's timeout (${timeout} s) is not above the bridge's deadline (${deadlineMs / 1000} s): ${adapter.title} could give up first. Run \`hookline install ${adapter.name}\` again.`,
    });
  const stderr = (result.answer.stderr ?? '').trim();
  if (
    result.spawnError !== undefined ||
    /command not found|No such file/.test(stderr) ||
    result.answer.exitCode === 127
  )
    return [
      ...findings,
      {
        ok: false,
        text: `${adapter.title}'s shell could not start \`${entry.command}\` (${result.spawnError ?? lastLine(stderr)}): put hookline on PATH, or install with --command.`,
      },
    ];
  if (result.timedOut)
    return [
      ...findings,
      { ok: false, text: `the bridge did not answer within the entry's timeout; its hooks are too slow.` },
    ];
  const verdict = adapter.readWire(result.answer, call);
  findings.push({
    ok: verdict.verdict !== 'invalid',
    text: `the synthetic ${call.agentEvent} call got: ${verdict.verdict}${verdict.reason === undefined ? '' : ` — ${verdict.reason}`}`,
  });
  if (report === undefined) {
    findings.push({
      ok: false,
      text: 'the bridge ran no hook (its config did not load, or it crashed): see the reason above.',
    });
    return findings;
  }
  if (report.configFiles.length === 0) {
    findings.push({
      ok: false,
      text: 'the bridge found no Hookline config here (hookline.toml, or the user layer): no hook can run. Write one with `hookline init --preset agent`.',
    });
    return findings;
  }
  findings.push({
    ok: true,
    text: `config: ${report.configFiles.join(', ')}; preset ${report.preset} (${report.form}); the call is its event ${report.event}`,
  });
  const ran = report.hooks.map((hook) => `${hook.name} (${hook.status})`);
  findings.push(
    ran.length === 0
      ? {
          ok: false,
          text: `no hook of the config was selected for ${report.event}: check its events and tool names (\`hookline explain ${report.event}\`).`,
        }
      : { ok: true, text: `hooks that ran: ${ran.join(', ')}` },
  );
  return findings;
}

function lastLine(text: string): string {
  return text.split('\n').at(-1) ?? text;
}
