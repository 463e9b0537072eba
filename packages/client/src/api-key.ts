/** The shape of every key the API issues: `sqz_` and 24 random bytes in base64url. */
const KEY_SHAPE = /^sqz_[A-Za-z0-9_-]{32}$/;

/**
 * The API key, checked for its shape so that a wrong value (a key pasted with its quotes or its variable
 * name, a truncated one) is refused here instead of being sent. The message never repeats the value.
 */
export function checkApiKey(apiKey: string | undefined): string {
  const key = apiKey?.trim();
  if (!key) throw new TypeError('An API key is required (apiKey).');
  if (!KEY_SHAPE.test(key)) {
    const start = key.startsWith('sqz_') ? '' : ' and does not start with sqz_';
    throw new TypeError(`Not an API key: keys are sqz_ and 32 letters, digits, - or _; the value given has ${key.length} characters${start}.`);
  }
  return key;
}
