/**
 * The sniffer of functions/domain/file-type.ts on real files: photos made by sharp (libvips),
 * PDFs by pdf-lib, the face photos of test/fixtures/faces, videos recorded by Chromium's
 * MediaRecorder and a Word file (test/fixtures/media, see its README). MOV, AVI, HEIC and DOC
 * cannot be produced by any tool installed here: their signatures are checked on minimal
 * headers built by the rules of their formats.
 */
import { readFileSync } from 'node:fs';
import { PDFDocument } from 'pdf-lib';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { FILE_TYPE_MESSAGES, fileTypeRefusal, sniffFileType, SNIFF_BYTES } from '../../functions/domain/file-type';
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

describe('sniffFileType: real files', () => {
  it('tells the photos apart', () => {
    expect(sniffFileType(images.jpeg!)).toEqual({ mime: 'image/jpeg', kind: 'image' });
    expect(sniffFileType(images.png!)).toEqual({ mime: 'image/png', kind: 'image' });
    expect(sniffFileType(images.webp!)).toEqual({ mime: 'image/webp', kind: 'image' });
    expect(sniffFileType(images.gif!)).toEqual({ mime: 'image/gif', kind: 'image' });
    expect(sniffFileType(images.avif!)).toEqual({ mime: 'image/avif', kind: 'image' });
    expect(sniffFileType(fixture('faces/person-a.jpg'))?.mime).toBe('image/jpeg');
    const raw = Buffer.alloc(3 * (1 + 4 * 3));
    expect(sniffFileType(new Uint8Array(encodePng(4, 3, raw)))?.mime).toBe('image/png');
  });

  it('reads a PDF (also after a few bytes of junk) and a Word file', () => {
    expect(sniffFileType(pdf)).toEqual({ mime: 'application/pdf', kind: 'pdf' });
    expect(sniffFileType(new Uint8Array([...text('\r\n\r\n'), ...pdf]))?.kind).toBe('pdf');
    expect(sniffFileType(fixture('media/delega.docx'))).toEqual({
      mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      kind: 'zip',
    });
  });

  it('reads the videos recorded by Chromium: WebM, MP4, Matroska', () => {
    expect(sniffFileType(fixture('media/clip.webm'))).toEqual({ mime: 'video/webm', kind: 'video' });
    expect(sniffFileType(fixture('media/clip.mp4'))).toEqual({ mime: 'video/mp4', kind: 'video' });
    expect(sniffFileType(fixture('media/clip.mkv'))).toEqual({ mime: 'video/x-matroska', kind: 'video' });
    expect(fileTypeRefusal({ name: 'giro.webm', declared: 'video/webm', head: fixture('media/clip.webm') })).toBeUndefined();
    expect(fileTypeRefusal({ name: 'giro.mp4', declared: 'video/mp4', head: fixture('media/clip.mp4') })).toBeUndefined();
  });

  it('needs only the first SNIFF_BYTES', () => {
    expect(SNIFF_BYTES).toBe(4100);
    expect(sniffFileType(pdf.subarray(0, 8))?.kind).toBe('pdf');
    expect(sniffFileType(images.jpeg!.subarray(0, 3))?.mime).toBe('image/jpeg');
  });
});

describe('sniffFileType: format rules (no tool here makes these files)', () => {
  it('reads the ISO brands: MP4, MOV, 3GP, HEIC, HEIF, AVIF, and refuses audio-only M4A', () => {
    expect(sniffFileType(ftyp('isom', 'isom', 'iso2', 'avc1', 'mp41'))?.mime).toBe('video/mp4');
    expect(sniffFileType(ftyp('qt  ', 'qt  '))?.mime).toBe('video/quicktime');
    expect(sniffFileType(ftyp('3gp5', '3gp5', 'isom'))?.mime).toBe('video/3gpp');
    expect(sniffFileType(ftyp('heic', 'mif1', 'heic'))).toEqual({ mime: 'image/heic', kind: 'image' });
    expect(sniffFileType(ftyp('mif1', 'mif1', 'heic'))?.mime).toBe('image/heic');
    expect(sniffFileType(ftyp('mif1', 'mif1', 'miaf'))?.mime).toBe('image/heif');
    expect(sniffFileType(ftyp('mif1', 'mif1', 'avif'))?.mime).toBe('image/avif');
    expect(sniffFileType(ftyp('M4A ', 'M4A ', 'mp42'))?.kind).toBe('audio');
  });

  it('reads old QuickTime files, AVI, WAV, Matroska, DOC', () => {
    const moov = Buffer.alloc(16);
    moov.writeUInt32BE(16, 0);
    moov.write('moov', 4, 'latin1');
    expect(sniffFileType(new Uint8Array(moov))?.mime).toBe('video/quicktime');
    expect(sniffFileType(riff('AVI ', 'LIST'))).toEqual({ mime: 'video/x-msvideo', kind: 'video' });
    expect(sniffFileType(riff('WAVE', 'fmt '))?.kind).toBe('audio');
    const mkv = new Uint8Array([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81, 0x01, 0x42, 0x82, 0x88, ...text('matroska')]);
    expect(sniffFileType(mkv)?.mime).toBe('video/x-matroska');
    const doc = new Uint8Array(512);
    doc.set([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
    expect(sniffFileType(doc)?.kind).toBe('word');
  });

  it('calls text text, and markup markup (SVG, HTML, XML), whatever the encoding', () => {
    expect(sniffFileType(text('Ciao, questa non è una foto.\n'))).toEqual({ mime: 'text/plain', kind: 'text' });
    expect(sniffFileType(text('Area_territoriale;Regione;Prov\nNORD;LOMBARDIA;MI\nperché città\n', 'latin1'))?.kind).toBe('text');
    expect(sniffFileType(text('\uFEFF  <?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'))).toEqual({ mime: 'image/svg+xml', kind: 'markup' });
    expect(sniffFileType(text('<!DOCTYPE html><html><body>x</body></html>'))?.mime).toBe('text/html');
    expect(sniffFileType(text('<?xml version="1.0"?><a/>'))?.mime).toBe('application/xml');
  });

  it('knows nothing of empty files and random binaries', () => {
    expect(sniffFileType(new Uint8Array())).toBeUndefined();
    const noise = new Uint8Array(256).map((_, i) => (i * 37 + 11) % 256);
    expect(sniffFileType(noise)).toBeUndefined();
  });
});

describe('fileTypeRefusal', () => {
  const notPhoto = text('Questo è un file di testo rinominato .jpg\n');

  it('accepts what is what it claims, within its family', () => {
    expect(fileTypeRefusal({ name: 'cucina.jpg', declared: 'image/jpeg', head: images.jpeg! })).toBeUndefined();
    expect(fileTypeRefusal({ name: 'cucina.jpg', declared: 'image/jpeg', head: images.png! })).toBeUndefined();
    expect(fileTypeRefusal({ name: 'bagno.webp', declared: 'image/webp', head: images.webp! })).toBeUndefined();
    expect(fileTypeRefusal({ name: 'opzione.pdf', declared: 'application/pdf', head: pdf })).toBeUndefined();
    expect(fileTypeRefusal({ name: 'delega.docx', declared: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', head: fixture('media/delega.docx') })).toBeUndefined();
    expect(fileTypeRefusal({ name: 'omi.csv', declared: 'text/csv', head: text('a;b\n1;2\n') })).toBeUndefined();
    expect(fileTypeRefusal({ name: 'giro.mov', declared: 'video/quicktime', head: ftyp('qt  ') })).toBeUndefined();
  });

  it('refuses a text renamed .jpg with the Italian message naming the file', () => {
    expect(fileTypeRefusal({ name: 'foto.jpg', declared: 'image/jpeg', head: notPhoto })).toBe(
      "Il file «foto.jpg» non è un'immagine valida: carica una foto JPG, PNG o WebP",
    );
  });

  it('refuses SVG always, declared or found', () => {
    const svg = text('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    expect(fileTypeRefusal({ name: 'logo.svg', declared: 'image/svg+xml', head: svg })).toBe(FILE_TYPE_MESSAGES.svg('logo.svg'));
    expect(fileTypeRefusal({ name: 'logo.png', declared: 'image/png', head: svg })).toBe(FILE_TYPE_MESSAGES.svg('logo.png'));
    expect(fileTypeRefusal({ name: 'note.txt', declared: 'text/plain', head: svg })).toBe(FILE_TYPE_MESSAGES.svg('note.txt'));
  });

  it('refuses across families and outside an allowed list', () => {
    expect(fileTypeRefusal({ name: 'video.mp4', declared: 'video/mp4', head: images.jpeg! })).toBe(FILE_TYPE_MESSAGES.video('video.mp4'));
    expect(fileTypeRefusal({ name: 'firma.pdf', declared: 'application/pdf', head: images.png! })).toBe('Il file «firma.pdf» non è un PDF valido');
    expect(fileTypeRefusal({ name: 'firma.docx', declared: 'application/msword', head: pdf })).toBe(FILE_TYPE_MESSAGES.word('firma.docx'));
    expect(fileTypeRefusal({ name: 'omi.csv', declared: 'text/csv', head: images.gif! })).toBe('Il file «omi.csv» non è un file di testo valido');
    expect(fileTypeRefusal({ name: 'pagina.txt', declared: 'text/plain', head: text('<html><body>x</body></html>') })).toBe(FILE_TYPE_MESSAGES.text('pagina.txt'));
    expect(fileTypeRefusal({ name: 'eseguibile.exe', declared: 'application/x-msdownload', head: images.png! })).toBe(FILE_TYPE_MESSAGES.other('eseguibile.exe'));
    expect(fileTypeRefusal({ name: 'vuoto.jpg', declared: 'image/jpeg', head: new Uint8Array() })).toBe(FILE_TYPE_MESSAGES.image('vuoto.jpg'));
    expect(
      fileTypeRefusal({ name: 'volto', declared: 'image/jpeg', head: images.webp!, allowed: ['image/jpeg', 'image/png'], allowedLabel: 'JPG o PNG' }),
    ).toBe("Il file «volto» non è un'immagine valida: carica una foto JPG o PNG");
  });
});
