// The HTTP runner on Deno: the same sources, run by Deno's TypeScript loader and its Node
// compatibility layer (undici uses node:net and node:tls), against a Deno.serve server on 127.0.0.1.
import { createHookEngine, loadConfig } from '@hookline/core';
import { httpRunner } from '../../src/index.ts';
import { assert, assertEquals } from '../../../core/runtime-tests/deno/assert.ts';

interface Received {
  readonly method: string;
  readonly contentType: string | null;
  readonly authorization: string | null;
  readonly id: string | null;
  readonly timestamp: string | null;
  readonly signature: string | null;
  readonly body: string;
}

// A receiver's check with Web Crypto only: HMAC-SHA256 over "{id}.{timestamp}.{body}".
async function verifies(received: Received, secret: string): Promise<boolean> {
  const keyBytes = Uint8Array.from(atob(secret.slice('whsec_'.length)), (character) => character.charCodeAt(0));
  const key = await crypto.subtle.importKey('raw', keyBytes, { name: 'HMAC', hash: 'SHA-256' }, false, ['verify']);
  const signature = Uint8Array.from(atob((received.signature ?? '').replace(/^v1,/, '')), (character) =>
    character.charCodeAt(0),
  );
  return crypto.subtle.verify(
    'HMAC',
    key,
    signature,
    new TextEncoder().encode(`${received.id}.${received.timestamp}.${received.body}`),
  );
}

function serve(answer: (received: Received) => Response) {
  const received: Received[] = [];
  const server = Deno.serve({ hostname: '127.0.0.1', port: 0, onListen: () => undefined }, async (request) => {
    const entry = {
      method: request.method,
      contentType: request.headers.get('content-type'),
      authorization: request.headers.get('authorization'),
      id: request.headers.get('webhook-id'),
      timestamp: request.headers.get('webhook-timestamp'),
      signature: request.headers.get('webhook-signature'),
      body: await request.text(),
    };
    received.push(entry);
    return answer(entry);
  });
  return { received, origin: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
}

Deno.test('an http hook posts the context and its decision blocks the event', async () => {
  const server = serve(() => Response.json({ decision: 'block', reason: 'blocked from Deno' }));
  Deno.env.set('HOOKLINE_DENO_TOKEN', 'deno-secret');
  const runner = httpRunner();
  const config = loadConfig(
    [
      {
        source: 'hookline.toml',
        text: `
[[hooks]]
name = "gate"
event = "stage_start"
type = "http"
url = "${server.origin}/hook"
tls = "off"
allowed_env_vars = ["HOOKLINE_DENO_TOKEN"]
headers = { Authorization = "Bearer \${HOOKLINE_DENO_TOKEN}" }
`,
      },
    ],
    { runners: [runner] },
  );
  const engine = createHookEngine({ config, runners: [runner] });
  try {
    const outcome = await engine.emit('stage_start', { run_id: 'deno-run', workflow_name: 'deno', node_id: 'deploy' });
    assertEquals(
      {
        decision: outcome.decision,
        reason: outcome.reason,
        decided_by: outcome.decided_by,
        status: outcome.hooks[0]?.status,
      },
      { decision: 'block', reason: 'blocked from Deno', decided_by: 'gate', status: 'ok' },
      JSON.stringify(outcome.hooks[0]),
    );
    assertEquals(server.received.length, 1);
    const [received] = server.received;
    assertEquals(received?.method, 'POST');
    assertEquals(received?.contentType, 'application/json');
    assertEquals(received?.authorization, 'Bearer deno-secret');
    assertEquals(JSON.parse(received!.body), {
      event: 'stage_start',
      run_id: 'deno-run',
      workflow_name: 'deno',
      node_id: 'deploy',
    });
  } finally {
    await engine.close();
    await server.close();
  }
});

Deno.test('a 500 fails the hook and on_error decides; a signed delivery carries a v1 signature', async () => {
  const server = serve((received) =>
    received.signature === null ? new Response('down', { status: 500 }) : new Response(null, { status: 204 }),
  );
  Deno.env.set('HOOKLINE_DENO_SIGNING', 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw');
  const runner = httpRunner();
  const config = loadConfig(
    [
      {
        source: 'hookline.toml',
        text: `
[[hooks]]
name = "plain"
event = "stage_start"
type = "http"
url = "${server.origin}/plain"
tls = "off"

[[hooks]]
name = "signed"
event = "stage_start"
type = "http"
url = "${server.origin}/signed"
tls = "off"
signing_secret_env = "HOOKLINE_DENO_SIGNING"
`,
      },
    ],
    { runners: [runner] },
  );
  const engine = createHookEngine({ config, runners: [runner] });
  try {
    const outcome = await engine.emit('stage_start', { run_id: 'deno-run', workflow_name: 'deno' });
    assertEquals(
      outcome.hooks.map((report) => report.status),
      ['failed', 'ok'],
    );
    assertEquals(outcome.hooks[0]?.error, `POST ${server.origin}/plain answered 500 Internal Server Error: down`);
    assertEquals(outcome.decision, 'proceed');
    const signed = server.received[1]!;
    assert(/^v1,[A-Za-z0-9+/]{43}=$/.test(signed.signature ?? ''), `signature: ${signed.signature}`);
    assert(
      await verifies(signed, 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'),
      'the signature verifies over the received body',
    );
    assert(
      !(await verifies({ ...signed, body: `${signed.body} ` }, 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw')),
      'a changed body does not verify',
    );
  } finally {
    await engine.close();
    await server.close();
  }
});
