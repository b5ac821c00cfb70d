// A self-signed certificate for 127.0.0.1 and localhost, generated per test run with openssl.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** PEM key and certificate. */
export interface Certificate {
  readonly key: string;
  readonly cert: string;
}

/**
 * Generates a fresh self-signed P-256 certificate. Fails loudly when openssl is missing: a TLS test
 * that skipped itself would pass without testing anything.
 */
export function selfSignedCertificate(): Certificate {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
  } catch {
    throw new Error('the TLS tests need the openssl command (Debian: apt-get install openssl)');
  }
  const folder = mkdtempSync(join(tmpdir(), 'hookline-http-cert-'));
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-keyout',
        join(folder, 'key.pem'),
        '-out',
        join(folder, 'cert.pem'),
        '-days',
        '2',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1,DNS:localhost',
      ],
      { stdio: 'ignore' },
    );
    return { key: readFileSync(join(folder, 'key.pem'), 'utf8'), cert: readFileSync(join(folder, 'cert.pem'), 'utf8') };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
