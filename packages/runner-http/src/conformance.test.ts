// Core's runner conformance suite, against a real server whose paths behave as the scenarios need.
import { runnerConformanceCases } from '@hookline/core/testing';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { httpRunner } from './http-runner.ts';
import { answer, startHttpServer, type TestServer } from '../test-support/servers.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startHttpServer((request, response) => {
    if (request.path === '/proceed') answer(200)(response);
    else if (request.path === '/block') answer(200, '{"decision":"block","reason":"conformance block"}')(response);
    else if (request.path === '/fail') answer(500, 'conformance failure')(response);
    // '/slow' never answers: only the hook's deadline or the engine's close ends it.
  });
});
afterAll(() => server.close());

describe('httpRunner conformance', () => {
  const runner = httpRunner();
  const at = (path: string) => ({ url: `${server.origin}${path}`, tls: 'off' });
  // Getters: the scenarios are read when each case runs, after the server has its port.
  const scenarios = {
    get proceed() {
      return at('/proceed');
    },
    get block() {
      return at('/block');
    },
    get fail() {
      return at('/fail');
    },
    get slow() {
      return at('/slow');
    },
  };
  for (const check of runnerConformanceCases({ runner, type: 'http', scenarios })) test(check.name, check.run, 15_000);
});
