import { expect, test } from 'vitest';
import { sandboxEnvironment } from './sandbox-environment.ts';

test('only the allow-listed variables and the locale categories pass, unset ones never', () => {
  const host = {
    PATH: '/usr/bin',
    HOME: '/home/u',
    LC_ALL: 'C.UTF-8',
    LC_MESSAGES: 'C',
    LANGUAGE: 'en',
    lc_all: 'x',
    TMPDIR: undefined,
    AWS_SECRET_ACCESS_KEY: 'a',
    DATABASE_URL: 'postgres://u:p@h/db',
    SSH_AUTH_SOCK: '/run/agent.sock',
    TOKEN: 't',
    path: '/lowercase/is/another/name',
  };
  expect(sandboxEnvironment(host)).toEqual({ PATH: '/usr/bin', HOME: '/home/u', LC_ALL: 'C.UTF-8', LC_MESSAGES: 'C' });
});
