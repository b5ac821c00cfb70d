/** What an exec's output says about a process that never started, if it did not. */
export interface StartFailureScope {
  readonly exitCode: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly image: string;
}

// Docker writes the runtime's refusal into the attach stream and reports exit code 126 (or 127).
// The wordings of runc (Docker 20.10 to 28) and crun are matched.
const RUNTIME_FAILURE =
  /OCI runtime exec failed|exec failed: unable to start container process|executable file not found|chdir to cwd/;

/**
 * Recognises an exec whose process the container runtime could not start — a working directory or
 * a program that does not exist in the container — and says what to do about it. `undefined` for an
 * exec that ran (a command's own exit code 126 or 127 is not mistaken: the runtime's message must be
 * the output).
 */
export function describeStartFailure(scope: StartFailureScope): string | undefined {
  if (scope.exitCode === null)
    return `Docker reported no exit code for the command in the container (image "${scope.image}"): it may not have started`;
  if (scope.exitCode !== 126 && scope.exitCode !== 127) return undefined;
  const output = `${scope.stdout}\n${scope.stderr}`.trim();
  if (!RUNTIME_FAILURE.test(output.split('\n')[0] ?? '')) return undefined;
  const chdir = /chdir to cwd \("([^"]*)"\)/.exec(output);
  if (chdir !== null) return missingCwdMessage(chdir[1]!, scope.image);
  const missing = /exec: "([^"]*)": executable file not found/.exec(output);
  if (missing !== null) return missingProgramMessage(missing[1]!, scope.image);
  return `the container runtime refused to start the process: ${output.split('\n')[0]}`;
}

/** A hook's working directory that the container does not have. */
export function missingCwdMessage(directory: string, image: string): string {
  return `the working directory "${directory}" does not exist in the container (image "${image}"): a context cwd must be a path inside the container or inside a folder mounted with [sandbox.docker] mounts`;
}

/** A hook's program that the container does not have. */
export function missingProgramMessage(program: string, image: string): string {
  return `cannot start "${program}": not found in image "${image}" (the docker sandbox runs commands with the preset's shell, sh for arc)`;
}
