import { InvalidOptionError } from '../errors/invalid-option-error.ts';
import { hmacSha256, type HmacSha256 } from './hmac-sha256.ts';
import type { JournalEntry, JournalProcessGroup, JournalRecord } from './journal.ts';

/**
 * The secret that seals journal entries: at least 32 bytes, or a function that reads it when first
 * needed (the CLI's reads or makes `~/.local/state/hookline/journal.key`). A function that rejects
 * makes journaling fail as an unusable journal does: the hooks run unjournaled, with a warning.
 */
export type JournalKey = Uint8Array | (() => Uint8Array | Promise<Uint8Array>);

/** Whether a stored entry carries a seal made by this key for this journal. */
export type SealVerdict = 'valid' | 'missing' | 'invalid';

/**
 * Seals and checks journal entries with HMAC-SHA256 (see `hmacSha256`: no `node:` module imported). An entry's seal
 * covers the journal's scope, preset, event, context (canonical JSON: keys sorted) and hook names; a
 * process group's seal covers its entry's seal, host, pid and start time — so nothing that decides
 * what runs with which context, or which process group is signalled, can be written or moved by
 * someone without the key. Seals read `v1.` and 64 hex digits.
 */
export interface JournalSeal {
  sealEntry(scope: string, record: JournalRecord): Promise<string>;
  verifyEntry(scope: string, entry: JournalEntry): Promise<SealVerdict>;
  sealGroup(entrySeal: string, group: Omit<JournalProcessGroup, 'seal'>): Promise<string>;
  verifyGroup(entrySeal: string, group: JournalProcessGroup): Promise<boolean>;
}

// Shorter keys are guessable in principle; 32 bytes is HMAC-SHA256's own block of strength.
const MIN_KEY_BYTES = 32;
const PREFIX = 'v1.';

/** A {@link JournalSeal} for `key`; the key is read and imported on first use, once. */
export function createJournalSeal(key: JournalKey): JournalSeal {
  let imported: Promise<HmacSha256> | undefined;
  // The key once imported: every seal after the first is made without waiting for the import again
  // (an await per seal, and a promise, at webhook rates).
  let ready: HmacSha256 | undefined;
  const keyed = (): Promise<HmacSha256> => {
    imported ??= (async () => {
      const bytes = typeof key === 'function' ? await key() : key;
      if (!(bytes instanceof Uint8Array) || bytes.byteLength < MIN_KEY_BYTES) {
        throw new InvalidOptionError(
          'createHookEngine',
          'journalKey',
          `journalKey must hold at least ${MIN_KEY_BYTES} bytes (a random secret), got ${bytes instanceof Uint8Array ? bytes.byteLength : typeof bytes}.`,
        );
      }
      return (ready = hmacSha256(bytes));
    })();
    // A key that failed to load is read again next time (a file made meanwhile, a fixed permission).
    imported.catch(() => (imported = undefined));
    return imported;
  };
  const sign = async (text: string): Promise<string> => {
    const hmac = ready ?? (await keyed());
    return PREFIX + (hmac.signHexNow === undefined ? toHex(await hmac.sign(text)) : hmac.signHexNow(text));
  };
  const verify = async (text: string, seal: string | undefined): Promise<boolean> => {
    const mac = seal !== undefined && seal.startsWith(PREFIX) ? fromHex(seal.slice(PREFIX.length)) : undefined;
    // Both HMACs compare in constant time.
    return mac !== undefined && (ready ?? (await keyed())).verify(text, mac);
  };
  return {
    sealEntry: (scope, record) => sign(entryText(scope, record)),
    async verifyEntry(scope, entry) {
      if (entry.seal === undefined || entry.seal === '') return 'missing';
      return (await verify(entryText(scope, entry), entry.seal)) ? 'valid' : 'invalid';
    },
    sealGroup: (entrySeal, group) => sign(groupText(entrySeal, group)),
    verifyGroup: (entrySeal, group) => verify(groupText(entrySeal, group), group.seal),
  };
}

// What an entry's seal covers, as one unambiguous text (a JSON array: no field can bleed into the next).
function entryText(scope: string, record: JournalRecord): string {
  return JSON.stringify([
    'hookline-journal-entry',
    1,
    scope,
    record.preset,
    record.event,
    canonicalJson(record.context),
    record.hooks,
  ]);
}

function groupText(entrySeal: string, group: Omit<JournalProcessGroup, 'seal'>): string {
  return JSON.stringify(['hookline-journal-process-group', 1, entrySeal, group.host, group.pid, group.start]);
}

/**
 * JSON with every object's keys sorted, so a journal that reorders keys (PostgreSQL's `jsonb`) keeps
 * the seal valid while any change of a value breaks it.
 */
export function canonicalJson(value: unknown): string {
  if (typeof value !== 'object' || value === null) return JSON.stringify(value) ?? 'null';
  // Built by appending, without the arrays a map/filter/join per object makes: every durable emit
  // seals its context, so this runs once per message.
  if (Array.isArray(value)) {
    let text = '[';
    for (let index = 0; index < value.length; index++) {
      if (index > 0) text += ',';
      text += canonicalJson(value[index] ?? null);
    }
    return text + ']';
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record).sort();
  let text = '{';
  for (const name of keys) {
    const item = record[name];
    if (item === undefined) continue;
    if (text.length > 1) text += ',';
    text += JSON.stringify(name) + ':' + canonicalJson(item);
  }
  return text + '}';
}

// The two hex digits of every byte value, so that a seal's 32 bytes are 32 look-ups.
const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));

function toHex(bytes: Uint8Array): string {
  let text = '';
  for (const byte of bytes) text += HEX[byte]!;
  return text;
}

function fromHex(text: string): Uint8Array<ArrayBuffer> | undefined {
  if (!/^[0-9a-f]{64}$/.test(text)) return undefined;
  const bytes = new Uint8Array(text.length / 2);
  for (let index = 0; index < bytes.length; index++)
    bytes[index] = Number.parseInt(text.slice(index * 2, index * 2 + 2), 16);
  return bytes;
}
