import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHookEngine, loadConfig } from '@hookline/core';
import { httpRunner } from '@hookline/runner-http';

// A stand-in for your policy service: it blocks deploys and lets everything else through.
const policy = createServer((request, response) => {
  let body = '';
  request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
  request.on('end', () => {
    const context = JSON.parse(body) as { node_id?: string };
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(
      context.node_id === 'deploy' ? JSON.stringify({ decision: 'block', reason: 'deploys are frozen' }) : '',
    );
  });
});
await new Promise<void>((resolve) => policy.listen(0, '127.0.0.1', resolve));
const { port } = policy.address() as AddressInfo;

process.env['POLICY_TOKEN'] ??= 'example-token';
const runners = [httpRunner()];
const config = loadConfig(
  [
    {
      source: 'hookline.toml',
      text: `
[[hooks]]
name = "policy"
event = "stage_start"
type = "http"
url = "http://127.0.0.1:${port}/hooks/stage-start"
tls = "off"   # plain http on loopback; a real endpoint uses https:// and the default tls = "verify"
allowed_env_vars = ["POLICY_TOKEN"]
headers = { Authorization = "Bearer $POLICY_TOKEN" }
`,
    },
  ],
  { runners },
);

const engine = createHookEngine({ config, runners });
for (const node of ['build', 'deploy']) {
  const outcome = await engine.emit('stage_start', { run_id: 'run-1', workflow_name: 'ship', node_id: node });
  console.log(`${node}: ${outcome.decision}${outcome.reason === undefined ? '' : ` (${outcome.reason})`}`);
}
await engine.close(); // closes the runner's connection pools too
policy.close();
// build: proceed
// deploy: block (deploys are frozen)
