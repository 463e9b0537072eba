/**
 * The one shape of an API key: `sqz_` followed by 24 random bytes in base64url (32 characters), 36
 * characters in all. The prefix makes a leaked key recognisable to secret scanners; the fixed shape
 * lets a request with anything else be refused before any storage is touched.
 */
const KEY_PREFIX = 'sqz_';
const RANDOM_BYTES = 24;
const KEY_SHAPE = /^sqz_[A-Za-z0-9_-]{32}$/;
/** How many leading characters are stored in clear to tell keys apart in listings. */
const DISPLAY_PREFIX_LENGTH = 12;

/** A new key: 192 random bits from the platform's CSPRNG. */
export function mintKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(RANDOM_BYTES));
  const base64 = btoa(String.fromCharCode(...bytes));
  return KEY_PREFIX + base64.replaceAll('+', '-').replaceAll('/', '_');
}

/** True when `text` could be a key this service issued; says nothing about whether it exists. */
export function hasKeyShape(text: string): boolean {
  return KEY_SHAPE.test(text);
}

/** The part of a key kept in clear beside its hash, e.g. `sqz_AbCdEfGh`. */
export function keyDisplayPrefix(key: string): string {
  return key.slice(0, DISPLAY_PREFIX_LENGTH);
}
