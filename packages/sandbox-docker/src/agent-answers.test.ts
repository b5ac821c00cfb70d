import { describe, expect, test } from 'vitest';
import { createAnswerReader, type AgentAnswer } from './agent-answers.ts';

const encoder = new TextEncoder();

function read(chunks: readonly string[]) {
  const answers: Array<[number, AgentAnswer]> = [];
  const events: string[] = [];
  const reader = createAnswerReader({
    answer: (id, answer) => answers.push([id, answer]),
    ready: (detail) => events.push(`ready ${detail}`),
    gone: (status) => events.push(`gone ${status}`),
    failed: (message) => events.push(`failed ${message}`),
  });
  for (const chunk of chunks) reader.push(encoder.encode(chunk));
  return { answers, events };
}

describe('createAnswerReader', () => {
  test('answers, errors, readiness and the agent going away, split anywhere', () => {
    const { answers, events } = read([
      '0 ready 12 1\n1 o',
      'k\n2 err cannot remove /x\n',
      '\n0 gone 137\n',
      'garbage\n3 ok 0 -\n',
    ]);
    expect(events).toEqual(['ready 12 1', 'gone 137']);
    expect(answers.map(([id, answer]) => [id, answer.text, answer.error])).toEqual([
      [1, '', undefined],
      [2, '', 'cannot remove /x'],
      [3, '0 -', undefined],
    ]);
  });

  test('a collection carries each stream as base64 lines before its answer', () => {
    const stdout = Buffer.from(Array.from({ length: 200 }, (_, index) => index % 256));
    const lines = stdout.toString('base64').match(/.{1,76}/g)!;
    const { answers } = read([
      `7 o\n${lines.join('\n')}\n7 e\n`,
      `${Buffer.from('oops\n').toString('base64')}\n7 ok 1 3\n8 ok\n`,
    ]);
    expect(answers).toHaveLength(2);
    const [id, answer] = answers[0]!;
    expect(id).toBe(7);
    expect(Buffer.from(answer.stdout).equals(stdout)).toBe(true);
    expect(new TextDecoder().decode(answer.stderr)).toBe('oops\n');
    expect(answer.text).toBe('1 3');
    expect(answers[1]![1].stdout).toHaveLength(0);
  });

  test('`0 err` before readiness is the agent failing to start', () => {
    expect(read(['0 err cannot create /tmp/hookline as the sandbox user\n']).events).toEqual([
      'failed cannot create /tmp/hookline as the sandbox user',
    ]);
  });
});
