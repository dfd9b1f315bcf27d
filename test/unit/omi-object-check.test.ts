import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { CountingHash, isMd5Etag, normalizeEtag, openedObjectMismatch, readBytesMismatch } from '../../functions/omi/object-check';

const body = Buffer.from('Quotazioni;\nArea_territoriale;Regione;\n'.repeat(500), 'latin1');
const md5 = createHash('md5').update(body).digest('hex');

async function readThrough(chunks: Buffer[]): Promise<CountingHash> {
  const check = new CountingHash();
  Readable.from(chunks).pipe(check);
  for await (const chunk of check) void chunk; // the parser's pull
  return check;
}

describe('the object read is the object announced', () => {
  it('tells a single-part ETag (the body MD5) from a multipart one', () => {
    expect(normalizeEtag(`"${md5.toUpperCase()}"`)).toBe(md5);
    expect(isMd5Etag(`"${md5}"`)).toBe(true);
    expect(isMd5Etag(`${md5}-3`)).toBe(false);
    expect(isMd5Etag('')).toBe(false);
  });

  it('before parsing: a shorter object or another ETag fails with nothing written', () => {
    expect(openedObjectMismatch({ size: body.length, etag: md5 }, { contentLength: body.length, etag: `"${md5}"` })).toBeNull();
    expect(openedObjectMismatch({ size: 20_104_311, etag: md5 }, { contentLength: 15_598_004, etag: `"${md5}"` })).toBe(
      'Il file letto non corrisponde a quello caricato (disponibili 15.598.004 byte su 20.104.311): nessun dato è stato modificato. Ricarica il file.',
    );
    expect(openedObjectMismatch({ size: body.length, etag: md5 }, { contentLength: body.length, etag: '"0123456789abcdef0123456789abcdef"' })).toBe(
      'Il file letto non corrisponde a quello caricato (contenuto diverso da quello caricato): nessun dato è stato modificato. Ricarica il file.',
    );
    // what the event does not say is not checked
    expect(openedObjectMismatch({}, { contentLength: 10, etag: 'x' })).toBeNull();
  });

  it('counts and hashes the bytes as they are pulled, in any chunking', async () => {
    const check = await readThrough([body.subarray(0, 7), body.subarray(7, 9000), body.subarray(9000)]);
    expect(check.bytes).toBe(body.length);
    expect(check.md5()).toBe(md5);
    expect(readBytesMismatch({ size: body.length, etag: `"${md5}"` }, { bytes: check.bytes, md5: check.md5() })).toBeNull();
  });

  it('at the end: a truncated body fails, saying how much was read', async () => {
    const check = await readThrough([body.subarray(0, 12_345)]);
    const msg = readBytesMismatch({ size: body.length, etag: md5 }, { bytes: check.bytes, md5: check.md5() });
    expect(msg).toContain(`Il file letto non corrisponde a quello caricato (letti 12.345 byte su ${body.length.toLocaleString('it-IT')})`);
    expect(msg).toContain("l'importazione è stata interrotta, ma alcune zone potrebbero essere già state riscritte");
    expect(msg).toContain('Ricarica il file.');
  });

  it('at the end: same size, other bytes fail on the MD5 of a single-part ETag', async () => {
    const other = Buffer.from(body);
    other[100] = 0x41;
    const check = await readThrough([other]);
    expect(readBytesMismatch({ size: body.length, etag: md5 }, { bytes: check.bytes, md5: check.md5() })).toContain('(impronta MD5 diversa)');
  });

  it('a multipart ETag cannot be checked by MD5: the size only', async () => {
    const other = Buffer.from(body);
    other[100] = 0x41;
    const check = await readThrough([other]);
    expect(readBytesMismatch({ size: body.length, etag: `"${md5}-2"` }, { bytes: check.bytes, md5: check.md5() })).toBeNull();
    expect(readBytesMismatch({ size: body.length + 1, etag: `"${md5}-2"` }, { bytes: check.bytes, md5: check.md5() })).toContain('letti');
  });
});
