import { afterEach, describe, expect, it, vi } from 'vitest';
import { storedWhole, type ObjectStore } from '../../infra/local/emulators';

/**
 * s3rver's store as it behaves: putObject resolves with the size it wrote while the file is
 * still being flushed; the object's size on disk then grows by `step` bytes a read.
 */
function earlyStore(step: number): ObjectStore & { reads: number } {
  let size = 0;
  let onDisk = 0;
  const store = {
    reads: 0,
    putObject: async (object: { bucket: string; key: string; content?: Buffer }) => {
      size = object.content?.length ?? 0;
      onDisk = 0;
      return { size, md5: 'abc' };
    },
    getMetadata: async () => {
      store.reads++;
      onDisk = Math.min(size, onDisk + step);
      return { 'content-length': String(onDisk) };
    },
  };
  return store;
}

const object = (size: number) => ({ bucket: 'drop', key: 'imports/j/2017-S2/QI_VALORI.csv', content: Buffer.alloc(size) });

afterEach(() => vi.restoreAllMocks());

describe('the local S3 answers a write, and sends its event, once the object is stored whole', () => {
  it('resolves putObject only when the object on disk has the size written', async () => {
    const store = earlyStore(5_000_000);
    storedWhole(store);
    expect(await store.putObject(object(20_104_311))).toEqual({ size: 20_104_311, md5: 'abc' });
    expect(store.reads).toBe(5); // 5, 10, 15, 20 MB, then whole
  });

  it('answers at once what is already whole', async () => {
    const store = earlyStore(Infinity);
    storedWhole(store);
    await store.putObject(object(12));
    expect(store.reads).toBe(1);
  });

  it('answers after the wait, logged, when the object never reaches its size (a reader then fails on its own checks)', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const store = { ...earlyStore(0), getMetadata: async () => ({ 'content-length': '10' }) };
    storedWhole(store, 60);
    await store.putObject(object(20));
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('10 byte su disco invece di 20'));
  });
});
