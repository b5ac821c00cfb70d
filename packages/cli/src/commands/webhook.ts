import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { CliError } from '../cli-error.ts';
import type { CommandModule } from '../command.ts';
import type { webhook } from '../command-specs.ts';
import type { CliIo } from '../cli-io.ts';

// What a receiver is told to keep when it has no library: the three headers, case-insensitively.
const HEADER_NAMES = ['webhook-id', 'webhook-timestamp', 'webhook-signature'] as const;

/** `hookline webhook verify`: checks a received delivery's Standard Webhooks signature. */
export const webhookCommand = {
  async run({ values, positionals: { BODY: bodyFile } }, io) {
    const secretEnv = values['secret-env'] ?? 'HOOKLINE_WEBHOOK_SECRET';
    const secret = io.env[secretEnv];
    if (secret === undefined || secret === '')
      throw new CliError(
        'HOOKLINE_CLI_USAGE',
        `${secretEnv} is not set: put the endpoint's whsec_… secret in it, or name the variable that holds it with --secret-env NAME.`,
      );
    const fromFile = values.headers === undefined ? {} : readHeaders(resolve(io.cwd, values.headers));
    const id = values.id ?? fromFile['webhook-id'];
    const timestamp = values.timestamp ?? fromFile['webhook-timestamp'];
    const signature = values.signature ?? fromFile['webhook-signature'];
    const missing = [
      id === undefined ? '--id' : '',
      timestamp === undefined ? '--timestamp' : '',
      signature === undefined ? '--signature' : '',
    ].filter((flag) => flag !== '');
    if (missing.length > 0)
      throw new CliError(
        'HOOKLINE_CLI_USAGE',
        `Missing ${missing.join(', ')}: give the delivery's webhook-id, webhook-timestamp and webhook-signature headers, or --headers FILE with them.`,
      );
    const tolerance = values.tolerance === undefined ? 300 : Number(values.tolerance);
    if (!Number.isInteger(tolerance) || tolerance < 0)
      throw new CliError(
        'HOOKLINE_CLI_USAGE',
        `--tolerance needs a whole number of seconds, got ${JSON.stringify(values.tolerance)}.`,
      );
    const body = await readBody(bodyFile, io);
    const { verifyWebhookSignature } = await loadVerifier();
    const verdict = verifyWebhookSignature({
      secret,
      id: id!,
      timestamp: timestamp!,
      signature: signature!,
      body,
      toleranceSeconds: tolerance === 0 ? Number.MAX_SAFE_INTEGER : tolerance,
    });
    if (values.json === true)
      io.stdout.write(`${JSON.stringify(verdict.ok ? { valid: true } : { valid: false, problem: verdict.problem })}\n`);
    else if (verdict.ok) io.stdout.write(`valid: ${id} is signed with the secret in ${secretEnv}\n`);
    else io.stderr.write(`hookline webhook verify: not valid: ${verdict.problem}\n`);
    return verdict.ok ? 0 : 1;
  },
} satisfies CommandModule<typeof webhook>;

async function loadVerifier(): Promise<typeof import('@hookline/runner-http/verify-webhook')> {
  try {
    return await import('@hookline/runner-http/verify-webhook');
  } catch (error) {
    throw new CliError(
      'HOOKLINE_CLI_USAGE',
      'hookline webhook verify needs @hookline/runner-http: install it next to @hookline/cli.',
      { cause: error },
    );
  }
}

async function readBody(file: string | undefined, io: CliIo): Promise<Buffer> {
  if (file === undefined || file === '-') {
    const chunks: Buffer[] = [];
    for await (const chunk of io.stdin) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
    return Buffer.concat(chunks);
  }
  try {
    return readFileSync(resolve(io.cwd, file));
  } catch (error) {
    throw new CliError(
      'HOOKLINE_CLI_USAGE',
      `Cannot read the body file ${file}: ${(error as Error).message}; give the raw body exactly as received.`,
      { cause: error },
    );
  }
}

function readHeaders(path: string): Partial<Record<(typeof HEADER_NAMES)[number], string>> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new CliError('HOOKLINE_CLI_USAGE', `Cannot read the headers file ${path}: ${(error as Error).message}.`, {
      cause: error,
    });
  }
  const found: Partial<Record<(typeof HEADER_NAMES)[number], string>> = {};
  for (const line of text.split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon < 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    if ((HEADER_NAMES as readonly string[]).includes(name))
      found[name as (typeof HEADER_NAMES)[number]] = line.slice(colon + 1).trim();
  }
  return found;
}
