import { describe, expect, it } from 'vitest';
import { messageOf } from './message-of.ts';

describe('messageOf', () => {
  it("gives an Error's message, without its name", () => {
    expect(messageOf(new TypeError('bad input'))).toBe('bad input');
  });

  it('turns any other thrown value into text', () => {
    expect(messageOf('plain text')).toBe('plain text');
    expect(messageOf(42)).toBe('42');
    expect(messageOf(undefined)).toBe('undefined');
  });
});
