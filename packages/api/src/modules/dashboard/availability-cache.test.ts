import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { type AvailabilityAnswer, bodyIn } from './availability-cache.js';

function answerOf(json: string): AvailabilityAnswer {
  return { version: '1:true', json: Buffer.from(json), ids: Object.freeze([1, 2]), compressed: {} };
}

describe('kept availability bodies', () => {
  // Shaped like an availability answer: bookings with names, dates and kit types.
  const json = JSON.stringify(
    Array.from({ length: 4000 }, (_, i) => ({
      id: 100_000 + i * 7,
      patientName: `${['Avery', 'Blake', 'Sophia', 'James'][i % 4]} ${['Smith', 'Garcia', 'Carter'][(i * 5) % 3]}`,
      kitType: ['Somfit', 'WatchPAT', 'SleepView'][i % 3],
      startDate: `2026-12-${String(1 + (i % 28)).padStart(2, '0')}`,
      status: ['confirmed', 'pending', 'picked_up'][(i * 3) % 3],
    })),
  );

  it('compresses once per answer and encoding, and decodes to the answer', async () => {
    const answer = answerOf(json);
    const first = bodyIn(answer, 'gzip');
    expect(bodyIn(answer, 'gzip')).toBe(first);
    expect(gunzipSync(await first).toString()).toBe(json);
    expect(await bodyIn(answer, 'identity')).toBe(answer.json);
  });

  it('replaces the quick brotli copy by a smaller one made at the best quality', async () => {
    const answer = answerOf(json);
    const quick = await bodyIn(answer, 'br');
    expect(brotliDecompressSync(quick).toString()).toBe(json);
    await expect.poll(async () => (await bodyIn(answer, 'br')) !== quick, { timeout: 5000 }).toBe(true);
    const best = await bodyIn(answer, 'br');
    expect(best.length).toBeLessThan(quick.length);
    expect(brotliDecompressSync(best).toString()).toBe(json);
  });
});
