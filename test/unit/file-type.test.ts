/**
 * The sniffer of functions/domain/file-type.ts (the `file-type` package and the product's own
 * rules) on real files: photos made by sharp (libvips), PDFs by pdf-lib, the face photos of
 * test/fixtures/faces, videos recorded by Chromium's MediaRecorder and a Word file
 * (test/fixtures/media, see its README), a spreadsheet zipped by fflate. MOV, AVI, HEIC and
 * DOC cannot be produced by any tool installed here: their signatures are checked on minimal
 * headers built by the rules of their formats.
 */
import { readFileSync } from 'node:fs';
import { zipSync } from 'fflate';
import { PDFDocument } from 'pdf-lib';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { FILE_TYPE_MESSAGES, fileTypeRefusal, kindOfMime, sniffFileType, SNIFF_BYTES, typeRefusal } from '../../functions/domain/file-type';
import { encodePng } from '../support/png';

const fixture = (name: string) => new Uint8Array(readFileSync(new URL(`../fixtures/${name}`, import.meta.url)));
const text = (s: string, encoding: BufferEncoding = 'utf8') => new Uint8Array(Buffer.from(s, encoding));

/** An ISO base media `ftyp` box: major brand, minor version 0, compatible brands. */
function ftyp(major: string, ...compatible: string[]): Uint8Array {
  const size = 16 + 4 * compatible.length;
  const box = Buffer.alloc(size + 16);
  box.writeUInt32BE(size, 0);
  box.write('ftyp', 4, 'latin1');
  box.write(major, 8, 'latin1');
  compatible.forEach((b, i) => box.write(b, 16 + 4 * i, 'latin1'));
  box.writeUInt32BE(16, size);
  box.write('mdat', size + 4, 'latin1');
  return new Uint8Array(box);
}

/** A RIFF file header of the given form, with its first chunk. */
function riff(form: string, first: string): Uint8Array {
  const b = Buffer.alloc(32);
  b.write('RIFF', 0, 'latin1');
  b.writeUInt32LE(24, 4);
  b.write(form, 8, 'latin1');
  b.write(first, 12, 'latin1');
  return new Uint8Array(b);
}

const images: Record<string, Uint8Array> = {};
let pdf: Uint8Array;

beforeAll(async () => {
  const base = sharp({ create: { width: 16, height: 12, channels: 3, background: '#c0392b' } });
  for (const format of ['jpeg', 'png', 'webp', 'gif', 'avif'] as const) images[format] = new Uint8Array(await base.clone().toFormat(format).toBuffer());
  const doc = await PDFDocument.create();
  doc.addPage([200, 200]).drawText('Opzione firmata', { x: 20, y: 100, size: 12 });
  pdf = await doc.save();
});

/** An Office Open XML file as a zip: its content types and one part (a spreadsheet unless said otherwise). */
function office(kind: 'spreadsheet' | 'word'): Uint8Array {
  const main = kind === 'word' ? ['word/document.xml', 'wordprocessingml.document.main+xml'] : ['xl/workbook.xml', 'spreadsheetml.sheet.main+xml'];
  const types = `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Override PartName="/${main[0]}" ContentType="application/vnd.openxmlformats-officedocument.${main[1]}"/></Types>`;
  return zipSync({ '[Content_Types].xml': text(types), [main[0]!]: text('<x/>') });
}

describe('sniffFileType: real files', () => {
  it('tells the photos apart', async () => {
    expect(await sniffFileType(images.jpeg!)).toEqual({ mime: 'image/jpeg', kind: 'image' });
    expect(await sniffFileType(images.png!)).toEqual({ mime: 'image/png', kind: 'image' });
    expect(await sniffFileType(images.webp!)).toEqual({ mime: 'image/webp', kind: 'image' });
    expect(await sniffFileType(images.gif!)).toEqual({ mime: 'image/gif', kind: 'image' });
    expect(await sniffFileType(images.avif!)).toEqual({ mime: 'image/avif', kind: 'image' });
    expect((await sniffFileType(fixture('faces/person-a.jpg')))?.mime).toBe('image/jpeg');
    const raw = Buffer.alloc(3 * (1 + 4 * 3));
    expect((await sniffFileType(new Uint8Array(encodePng(4, 3, raw))))?.mime).toBe('image/png');
  });

  it('reads a PDF (also after a few bytes of junk) and a Word file', async () => {
    expect(await sniffFileType(pdf)).toEqual({ mime: 'application/pdf', kind: 'pdf' });
    expect((await sniffFileType(new Uint8Array([...text('\r\n\r\n'), ...pdf])))?.kind).toBe('pdf');
    expect(await sniffFileType(fixture('media/delega.docx'))).toEqual({ mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', kind: 'word' });
    expect((await sniffFileType(office('word')))?.kind).toBe('word');
  });

  it('tells a spreadsheet from a Word file, both zips', async () => {
    expect(await sniffFileType(office('spreadsheet'))).toEqual({ mime: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', kind: 'other' });
    const xlsx = { name: 'delega.docx', declared: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', head: office('spreadsheet') };
    expect(await fileTypeRefusal(xlsx)).toBe(FILE_TYPE_MESSAGES.word('delega.docx'));
  });

  it('reads the videos recorded by Chromium: WebM, MP4, Matroska', async () => {
    expect(await sniffFileType(fixture('media/clip.webm'))).toEqual({ mime: 'video/webm', kind: 'video' });
    expect(await sniffFileType(fixture('media/clip.mp4'))).toEqual({ mime: 'video/mp4', kind: 'video' });
    expect(await sniffFileType(fixture('media/clip.mkv'))).toEqual({ mime: 'video/matroska', kind: 'video' });
    expect(await fileTypeRefusal({ name: 'giro.webm', declared: 'video/webm', head: fixture('media/clip.webm') })).toBeUndefined();
    expect(await fileTypeRefusal({ name: 'giro.mp4', declared: 'video/mp4', head: fixture('media/clip.mp4') })).toBeUndefined();
  });

  it('needs only the first SNIFF_BYTES', async () => {
    expect(SNIFF_BYTES).toBe(4100);
    expect((await sniffFileType(pdf.subarray(0, 8)))?.kind).toBe('pdf');
    expect((await sniffFileType(images.jpeg!.subarray(0, 3)))?.mime).toBe('image/jpeg');
    expect((await sniffFileType(fixture('media/delega.docx').subarray(0, SNIFF_BYTES)))?.kind).toBe('word');
    // a zip cut before its entries say what it holds: a Word file may look like this
    expect((await sniffFileType(office('word').subarray(0, 40)))?.kind).toBe('zip');
  });
});

describe('sniffFileType: format rules (no tool here makes these files)', () => {
  it('reads the ISO brands: MP4, MOV, 3GP, HEIC, HEIF, AVIF, and refuses audio-only M4A', async () => {
    expect((await sniffFileType(ftyp('isom', 'isom', 'iso2', 'avc1', 'mp41')))?.mime).toBe('video/mp4');
    expect((await sniffFileType(ftyp('qt  ', 'qt  ')))?.mime).toBe('video/quicktime');
    expect((await sniffFileType(ftyp('3gp5', '3gp5', 'isom')))?.mime).toBe('video/3gpp');
    expect(await sniffFileType(ftyp('heic', 'mif1', 'heic'))).toEqual({ mime: 'image/heic', kind: 'image' });
    expect(await sniffFileType(ftyp('mif1', 'mif1', 'heic'))).toEqual({ mime: 'image/heif', kind: 'image' });
    expect((await sniffFileType(ftyp('avif', 'mif1', 'avif')))?.mime).toBe('image/avif');
    expect((await sniffFileType(ftyp('M4A ', 'M4A ', 'mp42')))?.kind).toBe('audio');
    expect(await fileTypeRefusal({ name: 'voce.mp4', declared: 'video/mp4', head: ftyp('M4A ', 'M4A ', 'mp42') })).toBe(FILE_TYPE_MESSAGES.video('voce.mp4'));
  });

  it('reads old QuickTime files, AVI, WAV, Matroska, DOC', async () => {
    const moov = Buffer.alloc(16);
    moov.writeUInt32BE(16, 0);
    moov.write('moov', 4, 'latin1');
    expect((await sniffFileType(new Uint8Array(moov)))?.mime).toBe('video/quicktime');
    expect(await sniffFileType(riff('AVI ', 'LIST'))).toEqual({ mime: 'video/vnd.avi', kind: 'video' });
    expect((await sniffFileType(riff('WAVE', 'fmt ')))?.kind).toBe('audio');
    const mkv = new Uint8Array([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81, 0x01, 0x42, 0x82, 0x88, ...text('matroska')]);
    expect((await sniffFileType(mkv))?.mime).toBe('video/matroska');
    const doc = new Uint8Array(512);
    doc.set([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
    expect((await sniffFileType(doc))?.kind).toBe('word');
  });

  it('calls text text, and markup markup (SVG, HTML, XML), whatever the encoding', async () => {
    expect(await sniffFileType(text('Ciao, questa non è una foto.\n'))).toEqual({ mime: 'text/plain', kind: 'text' });
    expect((await sniffFileType(text('Area_territoriale;Regione;Prov\nNORD;LOMBARDIA;MI\nperché città\n', 'latin1')))?.kind).toBe('text');
    expect(await sniffFileType(text('\uFEFF  <?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'))).toEqual({ mime: 'image/svg+xml', kind: 'markup' });
    expect((await sniffFileType(text('<!DOCTYPE html><html><body>x</body></html>')))?.mime).toBe('text/html');
    expect((await sniffFileType(text('<?xml version="1.0"?><a/>')))?.mime).toBe('application/xml');
  });

  it("keeps a text a text when it starts like a two-letter signature (BMP's BM, an executable's MZ)", async () => {
    expect(await sniffFileType(text('BMW;Monaco;DE\nFIAT;Torino;IT\n'))).toEqual({ mime: 'text/plain', kind: 'text' });
    expect((await sniffFileType(text('MZ;zona;valore\n1;2;3\n')))?.kind).toBe('text');
    expect(await fileTypeRefusal({ name: 'omi.csv', declared: 'text/csv', head: text('BMW;Monaco;DE\n') })).toBeUndefined();
    // a real BMP header has NUL bytes: a photo
    const bmp = Buffer.alloc(64);
    bmp.write('BM', 0, 'latin1');
    bmp.writeUInt32LE(64, 2);
    bmp.writeUInt32LE(54, 10);
    bmp.writeUInt32LE(40, 14);
    expect((await sniffFileType(new Uint8Array(bmp)))?.mime).toBe('image/bmp');
  });

  it('knows nothing of empty files and random binaries', async () => {
    expect(await sniffFileType(new Uint8Array())).toBeUndefined();
    const noise = new Uint8Array(256).map((_, i) => (i * 37 + 11) % 256);
    expect(await sniffFileType(noise)).toBeUndefined();
  });
});

describe('kindOfMime: the types the product accepts, by family', () => {
  it('keeps the photo formats of the product, not every image the package knows', () => {
    for (const mime of ['image/jpeg', 'image/png', 'image/webp', 'image/gif', 'image/heic', 'image/heif', 'image/avif', 'image/bmp']) expect(kindOfMime(mime), mime).toBe('image');
    for (const mime of ['image/vnd.adobe.photoshop', 'image/x-icon', 'image/tiff', 'application/x-msdownload', 'application/gzip']) expect(kindOfMime(mime), mime).toBe('other');
    expect(kindOfMime('video/quicktime')).toBe('video');
    expect(kindOfMime('audio/mpeg')).toBe('audio');
  });
});

describe('fileTypeRefusal', () => {
  const notPhoto = text('Questo è un file di testo rinominato .jpg\n');

  it('accepts what is what it claims, within its family', async () => {
    expect(await fileTypeRefusal({ name: 'cucina.jpg', declared: 'image/jpeg', head: images.jpeg! })).toBeUndefined();
    expect(await fileTypeRefusal({ name: 'cucina.jpg', declared: 'image/jpeg', head: images.png! })).toBeUndefined();
    expect(await fileTypeRefusal({ name: 'bagno.webp', declared: 'image/webp', head: images.webp! })).toBeUndefined();
    expect(await fileTypeRefusal({ name: 'opzione.pdf', declared: 'application/pdf', head: pdf })).toBeUndefined();
    expect(await fileTypeRefusal({ name: 'delega.docx', declared: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', head: fixture('media/delega.docx') })).toBeUndefined();
    expect(await fileTypeRefusal({ name: 'omi.csv', declared: 'text/csv', head: text('a;b\n1;2\n') })).toBeUndefined();
    expect(await fileTypeRefusal({ name: 'giro.mov', declared: 'video/quicktime', head: ftyp('qt  ') })).toBeUndefined();
  });

  it('refuses a text renamed .jpg with the Italian message naming the file', async () => {
    expect(await fileTypeRefusal({ name: 'foto.jpg', declared: 'image/jpeg', head: notPhoto })).toBe(
      "Il file «foto.jpg» non è un'immagine valida: carica una foto JPG, PNG o WebP",
    );
  });

  it('refuses SVG always, declared or found', async () => {
    const svg = text('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    expect(await fileTypeRefusal({ name: 'logo.svg', declared: 'image/svg+xml', head: svg })).toBe(FILE_TYPE_MESSAGES.svg('logo.svg'));
    expect(await fileTypeRefusal({ name: 'logo.png', declared: 'image/png', head: svg })).toBe(FILE_TYPE_MESSAGES.svg('logo.png'));
    expect(await fileTypeRefusal({ name: 'note.txt', declared: 'text/plain', head: svg })).toBe(FILE_TYPE_MESSAGES.svg('note.txt'));
  });

  it('refuses across families and outside an allowed list', async () => {
    expect(await fileTypeRefusal({ name: 'video.mp4', declared: 'video/mp4', head: images.jpeg! })).toBe(FILE_TYPE_MESSAGES.video('video.mp4'));
    expect(await fileTypeRefusal({ name: 'firma.pdf', declared: 'application/pdf', head: images.png! })).toBe('Il file «firma.pdf» non è un PDF valido');
    expect(await fileTypeRefusal({ name: 'firma.docx', declared: 'application/msword', head: pdf })).toBe(FILE_TYPE_MESSAGES.word('firma.docx'));
    expect(await fileTypeRefusal({ name: 'omi.csv', declared: 'text/csv', head: images.gif! })).toBe('Il file «omi.csv» non è un file di testo valido');
    expect(await fileTypeRefusal({ name: 'pagina.txt', declared: 'text/plain', head: text('<html><body>x</body></html>') })).toBe(FILE_TYPE_MESSAGES.text('pagina.txt'));
    expect(await fileTypeRefusal({ name: 'eseguibile.exe', declared: 'application/x-msdownload', head: images.png! })).toBe(FILE_TYPE_MESSAGES.other('eseguibile.exe'));
    expect(await fileTypeRefusal({ name: 'vuoto.jpg', declared: 'image/jpeg', head: new Uint8Array() })).toBe(FILE_TYPE_MESSAGES.image('vuoto.jpg'));
    expect(
      await fileTypeRefusal({ name: 'volto', declared: 'image/jpeg', head: images.webp!, allowed: ['image/jpeg', 'image/png'], allowedLabel: 'JPG o PNG' }),
    ).toBe("Il file «volto» non è un'immagine valida: carica una foto JPG o PNG");
  });

  it('takes a zip the first bytes cannot open further for a Word file, and nothing else', () => {
    const zip = { mime: 'application/zip', kind: 'zip' } as const;
    expect(typeRefusal({ name: 'delega.docx', declared: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document' }, zip)).toBeUndefined();
    expect(typeRefusal({ name: 'delega.doc', declared: 'application/msword' }, zip)).toBeUndefined();
    expect(typeRefusal({ name: 'foto.jpg', declared: 'image/jpeg' }, zip)).toBe(FILE_TYPE_MESSAGES.image('foto.jpg'));
    expect(typeRefusal({ name: 'omi.csv', declared: 'text/csv' }, zip)).toBe(FILE_TYPE_MESSAGES.text('omi.csv'));
  });
});
