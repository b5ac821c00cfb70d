/** Which package provides each built-in hook type, so "unknown type" can say what to install. */
export const FIRST_PARTY_TYPES: Readonly<Record<string, string>> = {
  command: '@hookline/runner-command',
  http: '@hookline/runner-http',
  prompt: '@hookline/runner-llm',
  agent: '@hookline/runner-llm',
  script: '@hookline/runner-script',
};
