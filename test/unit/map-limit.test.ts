import { describe, expect, it } from 'vitest';
import { mapLimit } from '../../functions/lib/media-storage';

const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('mapLimit', () => {
  it('keeps at most `limit` in flight and returns the results in order', async () => {
    let inFlight = 0;
    let most = 0;
    const out = await mapLimit([5, 1, 4, 2, 3, 0], 2, async (n, i) => {
      most = Math.max(most, ++inFlight);
      await tick(n);
      inFlight--;
      return `${i}:${n}`;
    });
    expect(out).toEqual(['0:5', '1:1', '2:4', '3:2', '4:3', '5:0']);
    expect(most).toBe(2);
  });

  it('starts nothing after the first failure and rejects with it once the items in flight have ended', async () => {
    const started: number[] = [];
    const ended: number[] = [];
    const run = mapLimit([0, 1, 2, 3, 4, 5, 6, 7], 3, async (n) => {
      started.push(n);
      await tick(n === 1 ? 1 : 20);
      if (n === 1 || n === 2) throw new Error(`item ${n}`);
      ended.push(n);
      return n;
    });
    await expect(run).rejects.toThrow('item 1');
    // 0 and 2 were in flight when 1 failed: they ended before the rejection, and nothing else started
    expect(started.sort()).toEqual([0, 1, 2]);
    expect(ended).toEqual([0]);
    await tick(50);
    expect(started).toHaveLength(3);
  });

  it('resolves to nothing for no items', async () => {
    expect(await mapLimit([], 4, async () => 1)).toEqual([]);
  });
});
