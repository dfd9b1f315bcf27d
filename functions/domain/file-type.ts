/**
 * What a file really is, from its first bytes (its "magic number"), whatever its name or the
 * Content-Type the browser declared: the browser checks a file before uploading it
 * (web/src/lib/upload.ts) and the server checks the stored object again before linking it to
 * anything (functions/lib/upload-check.ts). Pure: the SPA imports it through `@domain`.
 *
 * A small table of signatures, not the `file-type` package: that package is not among the
 * installed dependencies (and none may be added now); this table covers exactly what the
 * product accepts: photos (JPEG, PNG, WebP, GIF, HEIC/HEIF, AVIF, BMP), videos (MP4, MOV, 3GP,
 * WebM/MKV, AVI), signed documents (PDF, JPEG/PNG, Word DOC/DOCX, plain text) and OMI CSV
 * (text). SVG, HTML and XML are text, never images: always refused where an image is expected.
 */

/** How many first bytes to read (the server's ranged GetObject asks for bytes 0..SNIFF_BYTES-1). */
export const SNIFF_BYTES = 4100;

export type FileKind = 'image' | 'video' | 'audio' | 'pdf' | 'word' | 'zip' | 'text' | 'markup';

export interface SniffedType {
  /** the real media type, e.g. 'image/jpeg', 'video/quicktime', 'image/svg+xml', 'text/plain' */
  mime: string;
  kind: FileKind;
}

const ascii = (b: Uint8Array, from: number, length: number) => String.fromCharCode(...b.subarray(from, from + length));

const startsWith = (b: Uint8Array, sig: readonly number[], at = 0) => b.length >= at + sig.length && sig.every((v, i) => b[at + i] === v);

/** The brands of an ISO base media file (MP4, MOV, HEIC, AVIF...): major then compatible ones. */
function isoBrands(b: Uint8Array): string[] | undefined {
  if (b.length < 12 || ascii(b, 4, 4) !== 'ftyp') return undefined;
  const size = Math.min(((b[0]! << 24) | (b[1]! << 16) | (b[2]! << 8) | b[3]!) >>> 0, b.length, 256);
  const brands = [ascii(b, 8, 4)];
  for (let at = 16; at + 4 <= size; at += 4) brands.push(ascii(b, at, 4));
  return brands;
}

const HEIC_BRANDS = new Set(['heic', 'heix', 'hevc', 'hevx', 'heim', 'heis', 'hevm', 'hevs']);
const AUDIO_BRANDS = new Set(['M4A ', 'M4B ', 'M4P ', 'F4A ', 'F4B ']);

function sniffIso(brands: string[]): SniffedType {
  const major = brands[0]!;
  if (major === 'avif' || major === 'avis') return { mime: 'image/avif', kind: 'image' };
  if (HEIC_BRANDS.has(major)) return { mime: 'image/heic', kind: 'image' };
  if (major === 'mif1' || major === 'msf1') {
    if (brands.includes('avif')) return { mime: 'image/avif', kind: 'image' };
    return { mime: brands.some((x) => HEIC_BRANDS.has(x)) ? 'image/heic' : 'image/heif', kind: 'image' };
  }
  if (major === 'qt  ') return { mime: 'video/quicktime', kind: 'video' };
  if (major.startsWith('3g')) return { mime: 'video/3gpp', kind: 'video' };
  if (AUDIO_BRANDS.has(major)) return { mime: 'audio/mp4', kind: 'audio' };
  return { mime: 'video/mp4', kind: 'video' };
}

/** QuickTime files from old cameras may start with another atom than ftyp. */
const QT_ATOMS = new Set(['moov', 'mdat', 'wide', 'free', 'skip', 'pnot']);

/** No NUL and almost no control characters: text (UTF-8 or a single-byte code page such as Latin-1). */
function looksLikeText(b: Uint8Array): boolean {
  let controls = 0;
  for (const c of b) {
    if (c === 0) return false;
    if (c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d && c !== 0x0c) controls += 1;
  }
  return controls <= b.length / 100;
}

function sniffText(b: Uint8Array): SniffedType | undefined {
  if (!looksLikeText(b)) return undefined;
  const text = new TextDecoder('utf-8', { fatal: false }).decode(b).replace(/^\uFEFF/, '').trimStart().toLowerCase();
  if (text.startsWith('<')) {
    if (text.includes('<svg')) return { mime: 'image/svg+xml', kind: 'markup' };
    if (text.startsWith('<!doctype html') || text.startsWith('<html') || text.includes('<script') || text.includes('<body')) return { mime: 'text/html', kind: 'markup' };
    return { mime: 'application/xml', kind: 'markup' };
  }
  return { mime: 'text/plain', kind: 'text' };
}

/** The real type of a file from its first bytes (SNIFF_BYTES are enough), or undefined when unknown or empty. */
export function sniffFileType(head: Uint8Array): SniffedType | undefined {
  const b = head.subarray(0, SNIFF_BYTES);
  if (b.length === 0) return undefined;
  if (startsWith(b, [0xff, 0xd8, 0xff])) return { mime: 'image/jpeg', kind: 'image' };
  if (startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return { mime: 'image/png', kind: 'image' };
  if (ascii(b, 0, 6) === 'GIF87a' || ascii(b, 0, 6) === 'GIF89a') return { mime: 'image/gif', kind: 'image' };
  if (ascii(b, 0, 4) === 'RIFF' && b.length >= 12) {
    const form = ascii(b, 8, 4);
    if (form === 'WEBP') return { mime: 'image/webp', kind: 'image' };
    if (form === 'AVI ') return { mime: 'video/x-msvideo', kind: 'video' };
    if (form === 'WAVE') return { mime: 'audio/wav', kind: 'audio' };
  }
  if (ascii(b, 0, 2) === 'BM' && b.length >= 26 && b[6] === 0 && b[7] === 0 && b[8] === 0 && b[9] === 0) return { mime: 'image/bmp', kind: 'image' };
  const brands = isoBrands(b);
  if (brands) return sniffIso(brands);
  if (b.length >= 8 && QT_ATOMS.has(ascii(b, 4, 4)) && b[0] === 0) return { mime: 'video/quicktime', kind: 'video' };
  if (startsWith(b, [0x1a, 0x45, 0xdf, 0xa3])) {
    const header = ascii(b, 0, 64);
    return header.includes('webm') ? { mime: 'video/webm', kind: 'video' } : { mime: 'video/x-matroska', kind: 'video' };
  }
  // %PDF- may follow a few bytes of junk (the PDF reference allows it in the first 1024 bytes)
  if (ascii(b, 0, 1024).includes('%PDF-')) return { mime: 'application/pdf', kind: 'pdf' };
  if (startsWith(b, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])) return { mime: 'application/msword', kind: 'word' };
  if (startsWith(b, [0x50, 0x4b, 0x03, 0x04])) {
    const names = ascii(b, 0, b.length);
    return names.includes('word/') || names.includes('[Content_Types].xml')
      ? { mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', kind: 'zip' }
      : { mime: 'application/zip', kind: 'zip' };
  }
  if (startsWith(b, [0x49, 0x44, 0x33]) || startsWith(b, [0xff, 0xfb])) return { mime: 'audio/mpeg', kind: 'audio' };
  return sniffText(b);
}

/** What a declared Content-Type promises, and the Italian name of it for the messages. */
function expectedKind(declared: string): FileKind | undefined {
  const ct = declared.split(';')[0]!.trim().toLowerCase();
  if (ct === 'image/svg+xml') return undefined;
  if (ct.startsWith('image/')) return 'image';
  if (ct.startsWith('video/')) return 'video';
  if (ct === 'application/pdf') return 'pdf';
  if (ct === 'application/msword') return 'word';
  if (ct === 'application/vnd.openxmlformats-officedocument.wordprocessingml.document') return 'zip';
  if (ct === 'text/plain' || ct === 'text/csv' || ct === 'application/vnd.ms-excel') return 'text';
  return undefined;
}

export const FILE_TYPE_MESSAGES = {
  image: (name: string, formats = 'JPG, PNG o WebP') => `Il file «${name}» non è un'immagine valida: carica una foto ${formats}`,
  svg: (name: string) => `Il file «${name}» è un'immagine SVG, che non è ammessa: carica una foto JPG, PNG o WebP`,
  video: (name: string) => `Il file «${name}» non è un video valido: carica un video MP4, MOV, WebM o AVI`,
  pdf: (name: string) => `Il file «${name}» non è un PDF valido`,
  word: (name: string) => `Il file «${name}» non è un documento Word valido`,
  text: (name: string) => `Il file «${name}» non è un file di testo valido`,
  other: (name: string) => `Il file «${name}» non è di un tipo ammesso`,
} as const;

export interface TypeCheck {
  /** the file's name as the user knows it (shown in the message) */
  name: string;
  /** the Content-Type declared by the browser (the one the upload was signed for) */
  declared: string;
  /** the first bytes of the file (SNIFF_BYTES are enough) */
  head: Uint8Array;
  /** when set, only these real types (e.g. JPEG and PNG for the identity check) */
  allowed?: readonly string[];
  /** how `allowed` reads in the message, e.g. 'JPG o PNG' */
  allowedLabel?: string;
}

/**
 * Why the file's bytes do not match what was declared (an Italian message naming the file), or
 * undefined when they do: an `image/*` must be a photo (never SVG), a `video/*` a video, a PDF a
 * PDF, a Word file a Word file, a text a text (no markup, nothing binary).
 */
export function fileTypeRefusal({ name, declared, head, allowed, allowedLabel }: TypeCheck): string | undefined {
  const sniffed = sniffFileType(head);
  const expected = expectedKind(declared);
  const ct = declared.split(';')[0]!.trim().toLowerCase();
  if (sniffed?.mime === 'image/svg+xml' || ct === 'image/svg+xml') return FILE_TYPE_MESSAGES.svg(name);
  const message =
    expected === 'image' ? FILE_TYPE_MESSAGES.image(name, allowedLabel)
    : expected === 'video' ? FILE_TYPE_MESSAGES.video(name)
    : expected === 'pdf' ? FILE_TYPE_MESSAGES.pdf(name)
    : expected === 'word' || expected === 'zip' ? FILE_TYPE_MESSAGES.word(name)
    : expected === 'text' ? FILE_TYPE_MESSAGES.text(name)
    : FILE_TYPE_MESSAGES.other(name);
  if (!sniffed || !expected || sniffed.kind !== expected) return message;
  if (allowed && !allowed.includes(sniffed.mime)) return message;
  return undefined;
}
