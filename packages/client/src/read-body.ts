/** A body that is not what was expected: longer than its cap, or shorter than it declared. */
export class BodyProblem extends Error {}

/**
 * Reads a response body of at most `limit` bytes: a Content-Length over it is refused before reading, and
 * the read stops as soon as the running count passes it, so a server cannot make the client hold more.
 */
export async function readBody(response: Response, limit: number, what: string): Promise<Uint8Array> {
  const declared = response.headers.get('Content-Length');
  if (declared !== null && Number(declared) > limit) {
    await response.body?.cancel();
    throw new BodyProblem(`The answer declares ${declared} bytes, more than the ${limit} bytes of ${what}.`);
  }
  if (!response.body) return new Uint8Array(0);
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let length = 0;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    length += value.length;
    if (length > limit) {
      await reader.cancel();
      throw new BodyProblem(`The answer is longer than the ${limit} bytes of ${what}.`);
    }
    chunks.push(value);
  }
  return concat(chunks);
}

export function concat(chunks: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}
