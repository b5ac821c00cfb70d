import type { StyleFormat } from './style.ts';

/** Colors of decisions and statuses, shared by every human output. */
export const DECISION_FORMAT: Readonly<Record<string, StyleFormat>> = {
  proceed: 'green',
  allow: 'green',
  skip: 'yellow',
  ask: 'yellow',
  block: ['red', 'bold'],
  override: 'cyan',
};

export const STATUS_FORMAT: Readonly<Record<string, StyleFormat>> = {
  ok: 'green',
  failed: 'red',
  timed_out: 'red',
  skipped: 'dim',
  pending: 'yellow',
};
