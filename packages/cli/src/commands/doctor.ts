import type { AgentAdapter, SettingsCommand } from '@hookline/core';
import { findAgent } from '../agents/find-agent.ts';
import { isBridgeCommand } from '../agents/bridge-command-line.ts';
import { runEntryCommand } from '../agents/run-entry-command.ts';
import { configFilePath, readSettingsFile, settingsPath, type SettingsFile } from '../agents/settings-file.ts';
import { displayPath } from '../agents/write-settings-change.ts';
import { DOCTOR_PREFIX, DOCTOR_VARIABLE, type DoctorReport } from '../bridge/run-bridged-event.ts';
import type { CliIo } from '../cli-io.ts';
import type { CommandModule } from '../command.ts';
import type { doctor } from '../command-specs.ts';
import { diagnoseRun, type Finding } from '../agents/diagnose-run.ts';
import { eventsToInstall } from '../agents/events-to-install.ts';

/**
 * `hookline doctor <agent>`: are the bridge's entries where the agent reads them, and does the exact
 * command line of the guard entry answer, in a form the agent honours? Each finding says what is
 * wrong and what to do.
 */
export const doctorCommand = {
  async run({ values, positionals }, io) {
    const owner = findAgent(positionals.agent);
    const adapter = owner.agent;
    const findings: Finding[] = [];
    const entries: SettingsCommand[] = [];
    const paths = [
      settingsPath(adapter, false, io),
      settingsPath(adapter, true, io),
      ...(adapter.settings.alsoRead ?? []).map((file) => configFilePath(file, io)),
    ];
    for (const path of paths) {
      const file = inspect(adapter, path, io, findings);
      if (file !== undefined)
        entries.push(
          ...adapter.settings.commands(file.data).filter((entry) => isBridgeCommand(adapter, entry.command)),
        );
    }
    const payload = adapter.doctorPayload(io.cwd);
    const call = adapter.readCall(payload);
    // The entry of the synthetic call's event, else any: they all run the same command line.
    const guard =
      'problem' in call ? undefined : (entries.find((entry) => entry.agentEvent === call.agentEvent) ?? entries[0]);
    let report: DoctorReport | undefined;
    if (entries.length === 0) {
      findings.push({
        ok: false,
        text: `no Hookline entry in ${adapter.title}'s settings: hooks would not fire. Run \`hookline install ${adapter.name}\`.`,
      });
    } else if (guard === undefined || 'problem' in call) {
      findings.push({
        ok: false,
        text: `${adapter.title}'s synthetic call cannot be read: ${'problem' in call ? call.problem : ''}`,
      });
    } else {
      const wanted = await eventsToInstall(owner, configOf(guard.command), io).catch(() => undefined);
      const missing = (wanted?.allBecause === undefined ? (wanted?.events ?? []) : []).filter(
        (event) => !entries.some((entry) => entry.agentEvent === event),
      );
      if (missing.length > 0)
        findings.push({
          ok: false,
          text: `the config has hooks for ${missing.join(', ')}, but no entry runs the bridge there: they would not fire. Run \`hookline install ${adapter.name}\` again.`,
        });
      const timeoutMs = (guard.timeoutSeconds ?? adapter.defaultTimeoutMs / 1000) * 1000;
      const result = await runEntryCommand({
        shell: adapter.hookShell,
        command: guard.command,
        cwd: io.cwd,
        env: { ...io.env, ...adapter.hookEnvironment?.(io.cwd), [DOCTOR_VARIABLE]: '1' },
        stdin: JSON.stringify(payload),
        timeoutMs,
      });
      report = doctorReport(result.answer.stderr ?? '');
      findings.push(...diagnoseRun({ adapter, call, entry: guard, result, report }));
    }
    const healthy = findings.every((finding) => finding.ok);
    if (values.json === true)
      io.stdout.write(`${JSON.stringify({ agent: adapter.name, healthy, findings, bridge: report ?? null })}\n`);
    else {
      io.stdout.write(
        `${adapter.title}:\n${findings.map((finding) => `  ${finding.ok ? 'ok ' : 'NO '} ${finding.text}`).join('\n')}\n`,
      );
      io.stdout.write(
        healthy ? `Hooks would fire through Hookline.\n` : `Hooks would not fire as expected: see above.\n`,
      );
    }
    return healthy ? 0 : 1;
  },
} satisfies CommandModule<typeof doctor>;

// The settings file, reported; undefined when it is missing or cannot be read.
function inspect(adapter: AgentAdapter, path: string, io: CliIo, findings: Finding[]): SettingsFile | undefined {
  const where = displayPath(path, io);
  let file: SettingsFile;
  try {
    file = readSettingsFile(path);
  } catch (error) {
    findings.push({ ok: false, text: error instanceof Error ? error.message : String(error) });
    return undefined;
  }
  if (file.text === undefined) return undefined;
  const problems = adapter.settings.problems?.(file.data) ?? [];
  for (const problem of problems) findings.push({ ok: false, text: `${where}: ${problem}` });
  const ours = adapter.settings.commands(file.data).filter((entry) => isBridgeCommand(adapter, entry.command));
  if (ours.length > 0)
    findings.push({ ok: true, text: `${where} has ${ours.length} Hookline entries (\`${ours[0]!.command}\`)` });
  return file;
}

// The --config and --preset an entry's command line gives the bridge (quoted as install writes them).
function configOf(command: string): { files: string[]; preset: string | undefined } {
  const words = [...command.matchAll(/'((?:[^']|'\\'')*)'|(\S+)/g)].map((match) =>
    match[1] === undefined ? match[2]! : match[1].replaceAll("'\\''", "'"),
  );
  const files = words.flatMap((word, index) =>
    word === '--config' && words[index + 1] !== undefined ? [words[index + 1]!] : [],
  );
  const preset = words[words.indexOf('--preset') + 1];
  return { files, preset: words.includes('--preset') ? preset : undefined };
}

function doctorReport(stderr: string): DoctorReport | undefined {
  const line = stderr.split('\n').find((text) => text.startsWith(DOCTOR_PREFIX));
  if (line === undefined) return undefined;
  try {
    return JSON.parse(line.slice(DOCTOR_PREFIX.length)) as DoctorReport;
  } catch {
    return undefined;
  }
}
