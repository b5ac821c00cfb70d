import { PassThrough, Readable } from 'node:stream';
import { expect, test } from 'vitest';
import { readLines } from './read-lines.ts';

async function linesOf(chunks: ReadonlyArray<string | Buffer>): Promise<string[]> {
  const lines: string[] = [];
  for await (const line of readLines(
    Readable.from(chunks.map((chunk) => (typeof chunk === 'string' ? Buffer.from(chunk) : chunk))),
  ))
    lines.push(line);
  return lines;
}

test('lines end at \\n, \\r\\n or a lone \\r, as readline splits them; a last line without an end counts', async () => {
  expect(await linesOf(['a\nb\r\nc\rd'])).toEqual(['a', 'b', 'c', 'd']);
  expect(await linesOf(['a\n\n\r\n'])).toEqual(['a', '', '']);
  expect(await linesOf([])).toEqual([]);
  expect(await linesOf(['only'])).toEqual(['only']);
});

test('a line, a \\r\\n or a character split across chunks comes out whole', async () => {
  const euro = Buffer.from('€');
  expect(await linesOf(['{"a":', '1}\n{"b"', ':2}\r', '\n{"c":3}\n'])).toEqual(['{"a":1}', '{"b":2}', '{"c":3}']);
  expect(
    await linesOf([
      Buffer.concat([Buffer.from('x'), euro.subarray(0, 1)]),
      Buffer.concat([euro.subarray(1), Buffer.from('y\n')]),
    ]),
  ).toEqual(['x€y']);
  // A lone \r at the end of a chunk ends its line; a \n starting the next chunk belongs to it.
  expect(await linesOf(['a\r', '\nb\r', 'c\n'])).toEqual(['a', 'b', 'c']);
});

test('close() ends the iteration while the stream stays open', async () => {
  const input = new PassThrough();
  const reader = readLines(input);
  const seen: string[] = [];
  const done = (async () => {
    for await (const line of reader) seen.push(line);
  })();
  input.write('first\n');
  await new Promise((resolve) => setTimeout(resolve, 20));
  reader.close();
  await done;
  expect(seen).toEqual(['first']);
});
