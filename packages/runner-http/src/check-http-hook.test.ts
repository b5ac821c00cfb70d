// Load-time checks of the url key (the header and TLS checks are tested beside their features).
import { expect, test } from 'vitest';
import { httpHook, load, loadError } from '../test-support/hooks.ts';

test.each([
  ['not a url', '`url` "not a url" is not a valid absolute URL; write it as https://host/path'],
  ['ftp://files.example/hook', '`url` must be an http(s) URL, not ftp://…'],
  [
    'https://user:hunter2@hooks.example/x',
    '`url` carries credentials (user:password@), which would appear in hook names and reports; send them in a header read from allowed_env_vars instead',
  ],
])('%s is a load error on the url line', (url, message) => {
  const error = loadError(httpHook(url));
  expect(error.issues.map((issue) => [issue.line, issue.message])).toEqual([[5, message]]);
});

test('a missing url is reported by the schema, with every other problem of the file', () => {
  const error = loadError(
    `[[hooks]]\nevent = "stage_start"\ntype = "http"\n\n[[hooks]]\nevent = "stage_start"\ntype = "http"\nurl = "http://plain.example/"\n`,
  );
  expect(error.issues.map((issue) => [issue.hook?.index, issue.message])).toEqual([
    [0, 'missing required key `url`'],
    [1, expect.stringContaining('requires https://')],
  ]);
});

test('an https url with a query string, a port and an IPv6 host loads', () => {
  const config = load(httpHook('https://[2001:db8::1]:8443/hooks?tenant=a&x=$1'));
  expect(config.hooks[0]?.options['url']).toBe('https://[2001:db8::1]:8443/hooks?tenant=a&x=$1');
});
