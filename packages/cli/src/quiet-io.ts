import type { CliIo, CliOutput } from './cli-io.ts';

// Every message a command writes to stderr starts with `hookline: `; warnings and progress notes are
// `hookline: warning: …` and dim `hookline: resumed …` lines, possibly painted (the engine's own
// events' `hookline: <event>: …` notes are not written at all when quiet). What stays is an error: it has no such marker.
const ANSI = /\u001b\[[0-9;]*m/g;
const CHATTER = /^hookline: (?:warning:|resumed )/;

/** Strips `-q`/`--quiet` (before a `--`) from the arguments: it applies to every command. */
export function takeQuiet(argv: readonly string[]): { argv: string[]; quiet: boolean } {
  const end = argv.indexOf('--');
  const head = end === -1 ? argv : argv.slice(0, end);
  const rest = end === -1 ? [] : argv.slice(end);
  const kept = head.filter((arg) => arg !== '-q' && arg !== '--quiet');
  return { argv: [...kept, ...rest], quiet: kept.length !== head.length };
}

/**
 * The io of a quiet run: warnings and notes on stderr are dropped (errors stay), and `io.quiet` tells
 * commands to leave out their human summary on stdout; machine output (`--json`, `run`'s lines,
 * `list`, `schema`) is what was asked for and is printed as usual.
 */
export function quietIo(io: CliIo): CliIo {
  const stderr: CliOutput = {
    write: (text: string) => (CHATTER.test(text.replace(ANSI, '')) ? true : io.stderr.write(text)),
    ...(io.stderr.isTTY === undefined ? {} : { isTTY: io.stderr.isTTY }),
    ...(io.stderr.columns === undefined ? {} : { columns: io.stderr.columns }),
  };
  // Not `...io`: that would read io.stdin, which makes the process's stdin reader (cli-io.ts).
  return {
    cwd: io.cwd,
    env: io.env,
    get stdin() {
      return io.stdin;
    },
    stdout: io.stdout,
    stderr,
    quiet: true,
  };
}
