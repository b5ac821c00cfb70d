/** What an exec's output says about a process that never started, if it did not. */
export interface StartFailureScope {
  readonly exitCode: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly image: string;
}

// Docker writes the runtime's refusal into the attach stream and reports exit code 126 (or 127).
// The wordings of runc (Docker 20.10 to 28) and crun are matched.
const RUNTIME_FAILURE = /OCI runtime exec failed|exec failed: unable to start container process|executable file not found|chdir to cwd/;

/**
 * Recognises an exec whose process the container runtime could not start — a working directory or
 * a program that does not exist in the container — and says what to do about it. `undefined` for an
 * exec that ran (a command's own exit code 126 or 127 is not mistaken: the runtime's message must be
 * the output).
 */
export function describeStartFailure(scope: StartFailureScope): string | undefined {
  if (scope.exitCode === null) return `Docker reported no exit code for the command in the container (image "${scope.image}"): it may not have started`;
  if (scope.exitCode !== 126 && scope.exitCode !== 127) return undefined;
  const output = `${scope.stdout}\n${scope.stderr}`.trim();
  if (!RUNTIME_FAILURE.test(output.split('\n')[0] ?? '')) return undefined;
  const chdir = /chdir to cwd \("([^"]*)"\)/.exec(output);
  if (chdir !== null) {
    return `the working directory "${chdir[1]}" does not exist in the container (image "${scope.image}"): a context cwd must be a path inside the container or inside a folder mounted with [sandbox.docker] mounts`;
  }
  const missing = /exec: "([^"]*)": executable file not found/.exec(output);
  if (missing !== null) return `cannot start "${missing[1]}": not found in image "${scope.image}" (the docker sandbox runs commands with the preset's shell, sh for arc)`;
  return `the container runtime refused to start the process: ${output.split('\n')[0]}`;
}
