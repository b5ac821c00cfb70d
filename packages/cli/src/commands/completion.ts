import { builtInPresets } from '@hookline/core';
import type { CommandModule, CommandSpec } from '../command.ts';
import { COMMAND_SPECS, type completion } from '../command-specs.ts';

/** What a completion script offers, read from the commands' declarations so it cannot drift. */
export interface CompletionFacts {
  readonly commands: ReadonlyArray<{
    readonly name: string;
    readonly summary: string;
    /** Its long options, `--help` last. */
    readonly options: readonly string[];
    /** The words its positionals may be: event names, or their choices. */
    readonly words: readonly string[];
  }>;
  /** Options, of any command, whose value is a file (`--config`, `-c`). */
  readonly fileOptions: readonly string[];
  /** `--preset` and its short forms. */
  readonly presetOptions: readonly string[];
  readonly presets: readonly string[];
}

const SHELLS: Readonly<Record<string, (facts: CompletionFacts) => string>> = {
  bash: bashScript,
  zsh: (facts) => zshScript(facts),
  fish: fishScript,
};

/** `hookline completion bash|zsh|fish`. */
export const completionCommand = {
  // The declaration admits only the shells below.
  async run({ positionals: { shell } }, io) {
    io.stdout.write(SHELLS[shell]!(completionFacts()));
    return 0;
  },
} satisfies CommandModule<typeof completion>;

/** The commands with their options and positional words, every preset's events, the preset names. */
export function completionFacts(): CompletionFacts {
  const events = [...new Set(builtInPresets.all.flatMap((preset) => preset.events.map((event) => event.name)))];
  const specs = Object.entries(COMMAND_SPECS).map(([name, spec]): { name: string; spec: CommandSpec } => ({
    name,
    spec,
  }));
  const commands = specs.map(({ name, spec }) => ({
    name,
    summary: spec.summary,
    options: [...Object.keys(spec.options).map((option) => `--${option}`), '--help'],
    words: spec.positionals.flatMap((positional) => (positional.event === true ? events : (positional.choices ?? []))),
  }));
  // Every spelling (`--config`, `-c`) of the options, of any command, whose declaration passes `test`.
  const spellings = (test: (name: string, value: string | undefined) => boolean): string[] => {
    const options = specs
      .flatMap(({ spec }) => Object.entries(spec.options))
      .filter(([name, option]) => test(name, option.value));
    return [
      ...new Set([
        ...options.map(([name]) => `--${name}`),
        ...options.flatMap(([, option]) => (option.short === undefined ? [] : [`-${option.short}`])),
      ]),
    ];
  };
  return {
    commands,
    fileOptions: spellings((_name, value) => value?.startsWith('FILE') === true),
    presetOptions: spellings((name) => name === 'preset'),
    presets: builtInPresets.names,
  };
}

function bashScript(facts: CompletionFacts): string {
  const cases = facts.commands
    .map((command) => `    ${command.name}) words="${[...command.options, ...command.words].join(' ')}" ;;`)
    .join('\n');
  return `# hookline completion for bash: eval "$(hookline completion bash)"
_hookline() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" prev="\${COMP_WORDS[COMP_CWORD-1]}" words
  if [ "$COMP_CWORD" -eq 1 ]; then
    COMPREPLY=($(compgen -W "${facts.commands.map((command) => command.name).join(' ')} --help --version --quiet" -- "$cur"))
    return
  fi
  case "$prev" in
    ${facts.fileOptions.join('|')}) COMPREPLY=($(compgen -f -- "$cur")); return ;;
    ${facts.presetOptions.join('|')}) COMPREPLY=($(compgen -W "${facts.presets.join(' ')}" -- "$cur")); return ;;
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
    ...facts.commands.map(
      (command) =>
        `complete -c hookline -n "not __fish_seen_subcommand_from ${names}" -a ${command.name} -d ${fishQuote(command.summary)}`,
    ),
    'complete -c hookline -s q -l quiet -d "no summary and no warnings"',
  ];
  for (const command of facts.commands) {
    const when = `-n "__fish_seen_subcommand_from ${command.name}"`;
    for (const option of command.options) {
      const name = option.slice(2);
      const argument = facts.fileOptions.includes(option)
        ? ' -r -F'
        : facts.presetOptions.includes(option)
          ? ` -x -a ${fishQuote(facts.presets.join(' '))}`
          : '';
      lines.push(`complete -c hookline ${when} -l ${name}${argument}`);
    }
    if (command.words.length > 0) lines.push(`complete -c hookline ${when} -a ${fishQuote(command.words.join(' '))}`);
  }
  return `${lines.join('\n')}\n`;
}

function fishQuote(text: string): string {
  return `'${text.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;
}
