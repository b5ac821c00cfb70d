// One stand-in Messages API per test file: started before its tests, closed after them, with the
// request log emptied before each test so `api.requests[n]` always means this test's n-th request.
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { startMessagesApi, type MessagesApi } from './messages-api.ts';

/** Registers the file's server hooks and returns the server (usable once the tests run). */
export function useMessagesApi(): MessagesApi {
  let server: MessagesApi | undefined;
  beforeAll(async () => {
    server = await startMessagesApi();
  });
  afterAll(() => server?.close());
  beforeEach(() => {
    if (server !== undefined) server.requests.length = 0;
  });
  const current = (): MessagesApi => {
    if (server === undefined) throw new Error('the Messages API stand-in is used outside a test');
    return server;
  };
  return {
    get url() {
      return current().url;
    },
    get requests() {
      return current().requests;
    },
    respond: (responder) => current().respond(responder),
    nextAbort: () => current().nextAbort(),
    close: () => current().close(),
  };
}
