import { describe, expect, it } from 'vitest';
import { inflateBounded } from '../../src/image/container/bounded-inflate';
import { MAX_ICCP_BYTES } from '../../src/image/header/png-header';
import { nextTurn } from '../../src/image/next-turn';
import { EMPTY_BLOCK_BYTES, zlibZerosThenEmptyBlocks } from '../helpers/deflate-work';

/**
 * Issue 35 item 1, "check the profile read's CPU": the read before the engine queue. Empty blocks after 2 MB of
 * zeros are not stopped as sparse (the input never passes twice the output), so the whole of the largest iCCP the
 * header lets through is inflated (0.36 to 0.43 s elapsed on the development machine): its CPU is bounded by that
 * size, and the event loop comes back at every 64 KiB of it.
 */
describe('the profile read: its work bounded by the header and handed back', () => {
  it('a stream of 2 MB of zeros, then empty blocks to the header\'s limit, is read whole with the loop handed back every 64 KiB', async () => {
    const stream = zlibZerosThenEmptyBlocks(2_000_000, Math.floor((MAX_ICCP_BYTES - 16_000) / EMPTY_BLOCK_BYTES));
    expect(stream.length).toBeLessThanOrEqual(MAX_ICCP_BYTES);
    expect(stream.length).toBeGreaterThan(MAX_ICCP_BYTES - 24_000);
    let reading = true;
    let turns = 0;
    const others = (async () => {
      for (; reading; turns++) await nextTurn();
    })();
    const inflated = await inflateBounded(stream, 2 * 1_048_576);
    reading = false;
    await others;
    expect(inflated.readBytes).toBe(stream.length);
    expect(inflated.bytes?.length).toBe(2_000_000);
    expect(turns).toBeGreaterThanOrEqual(Math.floor(stream.length / 65_536));
  });
});
