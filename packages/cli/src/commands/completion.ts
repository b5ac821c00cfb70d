import { presets } from '@hookline/core';
import { CliError } from '../cli-error.ts';
import type { Command } from '../command.ts';
import { COMMANDS } from '../command-table.ts';
import { helpOption, parseCommandArgs } from '../parse-command-args.ts';

const help = `Usage: hookline completion bash|zsh|fish

Prints a shell completion script for hookline: commands, each command's options, event names (of
every preset) after emit and explain, presets after --preset, files after --config, --context and
--journal.

  bash   eval "$(hookline completion bash)"             e.g. in ~/.bashrc
  zsh    eval "$(hookline completion zsh)"              e.g. in ~/.zshrc (uses bashcompinit)
  fish   hookline completion fish > ~/.config/fish/completions/hookline.fish

Options:
  -h, --help   show this help
`;

/** What a completion script offers, read from the commands themselves so it cannot drift. */
export interface CompletionFacts {
  readonly commands: ReadonlyArray<{ readonly name: string; readonly summary: string; readonly options: readonly string[] }>;
  readonly events: readonly string[];
  readonly presets: readonly string[];
}

const FILE_OPTIONS = ['--config', '--context', '--journal'];
const SHELLS: Readonly<Record<string, (facts: CompletionFacts) => string>> = { bash: bashScript, zsh: (facts) => zshScript(facts), fish: fishScript };

/** `hookline completion bash|zsh|fish`. */
export const completionCommand: Command = {
  help,
  async run(args, io) {
    const { values, positionals } = parseCommandArgs('completion', args, helpOption);
    if (values.help === true) {
      io.stdout.write(help);
      return 0;
    }
    const shell = positionals[0];
    const write = shell === undefined || positionals.length > 1 || !Object.hasOwn(SHELLS, shell) ? undefined : SHELLS[shell];
    if (write === undefined) throw new CliError('HOOKLINE_CLI_USAGE', `name one shell: \`hookline completion bash\`, \`zsh\` or \`fish\`${shell === undefined ? '' : ` (got "${positionals.join(' ')}")`}.`);
    io.stdout.write(write(await completionFacts()));
    return 0;
  },
};

/** The commands with the long options their help lists, every preset's events, the preset names. */
export async function completionFacts(): Promise<CompletionFacts> {
  const commands = await Promise.all(
    Object.entries(COMMANDS).map(async ([name, entry]) => {
      const { help: text } = name === 'completion' ? completionCommand : await entry.load();
      const options = [...new Set([...text.matchAll(/^\s+(?:-\w, )?(--[a-z][a-z-]*)/gm)].map((match) => match[1]!))];
      return { name, summary: entry.summary, options };
    }),
  );
  const events = [...new Set(Object.values(presets).flatMap((preset) => preset.events.map((event) => event.name)))];
  return { commands, events, presets: Object.keys(presets) };
}

function bashScript(facts: CompletionFacts): string {
  const cases = facts.commands
    .map((command) => {
      const words = [...command.options, ...(command.name === 'emit' || command.name === 'explain' ? facts.events : []), ...(command.name === 'completion' ? ['bash', 'zsh', 'fish'] : []), ...(command.name === 'sandbox' ? ['prune'] : [])];
      return `    ${command.name}) words="${words.join(' ')}" ;;`;
    })
    .join('\n');
  return `# hookline completion for bash: eval "$(hookline completion bash)"
_hookline() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" prev="\${COMP_WORDS[COMP_CWORD-1]}" words
  if [ "$COMP_CWORD" -eq 1 ]; then
    COMPREPLY=($(compgen -W "${facts.commands.map((command) => command.name).join(' ')} --help --version --quiet" -- "$cur"))
    return
  fi
  case "$prev" in
    ${FILE_OPTIONS.join('|')}|-c) COMPREPLY=($(compgen -f -- "$cur")); return ;;
    --preset|-p) COMPREPLY=($(compgen -W "${facts.presets.join(' ')}" -- "$cur")); return ;;
  esac
  case "\${COMP_WORDS[1]}" in
${cases}
    *) words="" ;;
  esac
  COMPREPLY=($(compgen -W "$words --quiet" -- "$cur"))
}
complete -o default -F _hookline hookline
`;
}

function zshScript(facts: CompletionFacts): string {
  return `# hookline completion for zsh: eval "$(hookline completion zsh)"
autoload -U +X compinit && compinit
autoload -U +X bashcompinit && bashcompinit
${bashScript(facts).split('\n').slice(1).join('\n')}`;
}

function fishScript(facts: CompletionFacts): string {
  const names = facts.commands.map((command) => command.name).join(' ');
  const lines = [
    '# hookline completion for fish: hookline completion fish > ~/.config/fish/completions/hookline.fish',
    'complete -c hookline -f',
    ...facts.commands.map((command) => `complete -c hookline -n "not __fish_seen_subcommand_from ${names}" -a ${command.name} -d ${fishQuote(command.summary)}`),
    'complete -c hookline -s q -l quiet -d "no summary and no warnings"',
  ];
  for (const command of facts.commands) {
    const when = `-n "__fish_seen_subcommand_from ${command.name}"`;
    for (const option of command.options) {
      const name = option.slice(2);
      const argument = FILE_OPTIONS.includes(option) ? ' -r -F' : option === '--preset' ? ` -x -a ${fishQuote(facts.presets.join(' '))}` : '';
      lines.push(`complete -c hookline ${when} -l ${name}${argument}`);
    }
    if (command.name === 'emit' || command.name === 'explain') lines.push(`complete -c hookline ${when} -a ${fishQuote(facts.events.join(' '))}`);
    if (command.name === 'completion') lines.push(`complete -c hookline ${when} -a "bash zsh fish"`);
    if (command.name === 'sandbox') lines.push(`complete -c hookline ${when} -a prune`);
  }
  return `${lines.join('\n')}\n`;
}

function fishQuote(text: string): string {
  return `'${text.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;
}
