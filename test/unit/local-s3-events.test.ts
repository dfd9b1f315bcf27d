import { afterEach, describe, expect, it, vi } from 'vitest';
import { whenStored, type ObjectStore } from '../../infra/local/emulators';

/** s3rver's store while it is still writing: the object's size on disk grows by `step` bytes a read. */
function growingStore(size: number, step: number): ObjectStore & { reads: number } {
  let onDisk = 0;
  const store = {
    reads: 0,
    getMetadata: async () => {
      store.reads++;
      onDisk = Math.min(size, onDisk + step);
      return { 'content-length': String(onDisk) };
    },
  };
  return store;
}

const created = (size: number, key = 'imports/j/2017-S2/QI_VALORI.csv') => ({
  Records: [{ eventName: 'ObjectCreated:Post', s3: { bucket: { name: 'drop' }, object: { key, size, eTag: 'abc' } } }],
});

afterEach(() => vi.restoreAllMocks());

describe('the local runtime delivers S3 events for complete objects only', () => {
  it('waits until the stored object has the size the event announces', async () => {
    const store = growingStore(20_104_311, 5_000_000);
    await whenStored(store, created(20_104_311));
    expect(store.reads).toBe(5); // 5, 10, 15, 20 MB, then whole
  });

  it('does not wait for an event without an object size, or that is not ObjectCreated', async () => {
    const store = growingStore(100, 1);
    await whenStored(store, { Records: [{ eventName: 'ObjectRemoved:Delete', s3: { bucket: { name: 'drop' }, object: { key: 'k' } } }] });
    await whenStored(store, { Records: [] });
    expect(store.reads).toBe(0);
  });

  it('goes on after the wait, logged, when the object never reaches the size (the import then fails the job)', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const store = { getMetadata: async () => ({ 'content-length': '10' }) };
    await whenStored(store, created(20), 60);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('10 byte su disco invece di 20'));
  });
});
