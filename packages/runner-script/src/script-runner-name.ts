/** The package name, as errors name the runner (and the script host finds its runner by). */
export const SCRIPT_RUNNER_NAME = '@hookline/runner-script';
