import type { CliIo } from '../cli-io.ts';

/** The whole of stdin as text (an agent writes its hook payload and closes the pipe). */
export async function readAllStdin(io: CliIo): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of io.stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks).toString('utf8');
}
