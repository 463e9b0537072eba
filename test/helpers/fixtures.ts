import { env } from 'cloudflare:workers';

/**
 * Reads a file under test/fixtures/. workerd has no file system, so vitest.config.ts serves the
 * folder through the FIXTURES service binding.
 */
export async function fixture(name: string): Promise<Uint8Array> {
  const response = await env.FIXTURES.fetch(`http://fixtures/${encodeURIComponent(name).replaceAll('%2F', '/')}`);
  if (!response.ok) throw new Error(`fixture ${name}: ${await response.text()}`);
  return new Uint8Array(await response.arrayBuffer());
}
