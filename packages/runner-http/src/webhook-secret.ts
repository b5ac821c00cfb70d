/** Standard Webhooks: secrets are `whsec_` + base64 of 24 to 64 random bytes. */
const PREFIX = 'whsec_';
const MIN_BYTES = 24;
const MAX_BYTES = 64;
// Standard base64; the trailing `=` padding may be left out, as some providers do.
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** The signing key, or why the variable's value is not a usable secret (never the value itself). */
export type WebhookSecret =
  { readonly ok: true; readonly key: Uint8Array } | { readonly ok: false; readonly problem: string };

/**
 * Reads a Standard Webhooks secret from the environment variable `name`. The messages name the
 * variable and say what is wrong with its value without quoting it.
 */
export function readWebhookSecret(name: string, value: string | undefined): WebhookSecret {
  if (value === undefined || value === '') {
    return {
      ok: false,
      problem: `signing_secret_env names ${name}, which is not set; set it to the endpoint's whsec_… secret`,
    };
  }
  if (!value.startsWith(PREFIX)) {
    return {
      ok: false,
      problem: `the value of ${name} is not a Standard Webhooks secret: it must start with "${PREFIX}" followed by base64`,
    };
  }
  const encoded = value.slice(PREFIX.length);
  const unpadded = encoded.replace(/=+$/, '');
  if (
    !BASE64.test(encoded) ||
    unpadded.length % 4 === 1 ||
    (encoded.length !== unpadded.length && encoded.length % 4 !== 0)
  ) {
    return {
      ok: false,
      problem: `the value of ${name} is not a Standard Webhooks secret: the part after "${PREFIX}" is not valid base64`,
    };
  }
  const key = Buffer.from(encoded, 'base64');
  if (key.length < MIN_BYTES || key.length > MAX_BYTES) {
    return {
      ok: false,
      problem: `the value of ${name} decodes to ${key.length} bytes; a Standard Webhooks secret has ${MIN_BYTES} to ${MAX_BYTES}`,
    };
  }
  return { ok: true, key: new Uint8Array(key) };
}
