// A Hookline process that is killed mid-run: it opens a docker session for the run id given as its
// argument, starts a hook that would run for minutes, prints the container id and waits to be killed.
//   node test-support/orphan-owner.ts <run-id> <image>
import process from 'node:process';
import { dockerSandbox } from '../src/index.ts';

const [runId = 'orphan', image = 'hookline-test/busybox'] = process.argv.slice(2);
// It must not prune: the test's own containers are not its business.
const provider = dockerSandbox({ image, pruneOrphans: false });
const session = await provider.doOpen(runId, new AbortController().signal);
void session.exec({ command: 'sleep 300' }).catch(() => undefined);
await new Promise((resolve) => setTimeout(resolve, 300));
process.stdout.write(`ready ${session.container.containerId}\n`);
setInterval(() => undefined, 60_000);
