/**
 * What a file really is, from its first bytes (its "magic number"), whatever its name or the
 * Content-Type the browser declared: the browser checks a file before uploading it
 * (web/src/lib/upload.ts) and the server checks the stored object again before linking it to
 * anything (functions/lib/upload-check.ts). Pure: the SPA imports it through `@domain`.
 *
 * The binary formats are recognized by the `file-type` package (its core entry: no Node API,
 * the same code in the browser and in the Lambdas), loaded on first use so that the SPA's
 * pages carry it only once a file is picked. This module keeps the product's own rules: which
 * of the package's types each upload accepts (photos: JPEG, PNG, WebP, GIF, HEIC/HEIF, AVIF,
 * BMP; videos: MP4, MOV, 3GP, M4V, WebM/MKV, AVI; signed documents: PDF, JPEG/PNG, Word
 * DOC/DOCX, plain text, a CAdES .p7m (recognized here, not by the package); OMI CSV: text), a PDF after a few bytes of junk, and text versus
 * markup, which the package does not tell: SVG, HTML and XML are text, never images, and are
 * always refused where an image is expected.
 */

/** How many first bytes to read (the server's ranged GetObject asks for bytes 0..SNIFF_BYTES-1). */
export const SNIFF_BYTES = 4100;

/**
 * The families the product tells apart: `zip` is an archive the package could not open
 * further (a Word file whose first bytes are not enough to say so), `other` anything known
 * that no upload accepts (an executable, a spreadsheet, a PSD...).
 */
export type FileKind = 'image' | 'video' | 'audio' | 'pdf' | 'word' | 'zip' | 'text' | 'markup' | 'cms' | 'other';

export interface SniffedType {
  /** the real media type, e.g. 'image/jpeg', 'video/quicktime', 'image/svg+xml', 'text/plain' */
  mime: string;
  kind: FileKind;
}

const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

/** The package's media types the product accepts, by family; any other is `other` (audio/* is `audio`). */
const KIND_OF_MIME: Readonly<Record<string, FileKind>> = {
  'image/jpeg': 'image',
  'image/png': 'image',
  'image/webp': 'image',
  'image/gif': 'image',
  'image/heic': 'image',
  'image/heic-sequence': 'image',
  'image/heif': 'image',
  'image/heif-sequence': 'image',
  'image/avif': 'image',
  'image/bmp': 'image',
  'video/mp4': 'video',
  'video/quicktime': 'video',
  'video/3gpp': 'video',
  'video/3gpp2': 'video',
  'video/x-m4v': 'video',
  'video/webm': 'video',
  'video/matroska': 'video',
  'video/vnd.avi': 'video',
  'application/pdf': 'pdf',
  // DOC is an OLE compound file: the package names the container, not what is inside
  'application/x-cfb': 'word',
  [DOCX]: 'word',
  'application/zip': 'zip',
};

/** The family of one of the package's media types. */
export function kindOfMime(mime: string): FileKind {
  return KIND_OF_MIME[mime] ?? (mime.startsWith('audio/') ? 'audio' : 'other');
}

const ascii = (b: Uint8Array, from: number, length: number) => String.fromCharCode(...b.subarray(from, from + length));

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

type FileTypeModule = typeof import('file-type/core');
let loading: Promise<FileTypeModule> | undefined;

/** The package, imported once on first use (a failed load, e.g. the SPA offline, is tried again next time). */
function fileTypeModule(): Promise<FileTypeModule> {
  loading ??= import('file-type/core').catch((err: unknown) => {
    loading = undefined;
    throw err;
  });
  return loading;
}

/** DER of a CMS SignedData: SEQUENCE, then the OID 1.2.840.113549.1.7.2 within its first bytes. */
const SIGNED_DATA_OID = [0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x07, 0x02];
function isSignedDataDer(b: Uint8Array): boolean {
  if (b[0] !== 0x30) return false;
  const window = b.subarray(0, 24);
  return window.some((_, i) => SIGNED_DATA_OID.every((x, j) => window[i + j] === x));
}

/** A CAdES `.p7m`: the DER of a CMS SignedData, or its base64 (as some signing tools save it). */
function isSignedData(b: Uint8Array): boolean {
  if (isSignedDataDer(b)) return true;
  const text = ascii(b, 0, Math.min(b.length, 64)).replace(/\s/g, '');
  if (!/^MI[A-Za-z0-9+/]{30,}/.test(text)) return false;
  try {
    return isSignedDataDer(Uint8Array.from(atob(text.slice(0, 32)), (c) => c.charCodeAt(0)));
  } catch {
    return false;
  }
}

/**
 * The real type of a file from its first bytes (SNIFF_BYTES are enough), or undefined when
 * unknown or empty. Rejects only when the package cannot be loaded.
 */
export async function sniffFileType(head: Uint8Array): Promise<SniffedType | undefined> {
  const b = head.subarray(0, SNIFF_BYTES);
  if (b.length === 0) return undefined;
  // the package does not know CMS; a firma digitale (.p7m) is recognized here
  if (isSignedData(b)) return { mime: 'application/pkcs7-mime', kind: 'cms' };
  const { fileTypeFromBuffer } = await fileTypeModule();
  // bytes the package cannot finish reading (a truncated container) are unknown, like no match
  const found = await fileTypeFromBuffer(b).catch(() => undefined);
  if (found && found.mime !== 'application/xml') {
    const sniffed = { mime: found.mime, kind: kindOfMime(found.mime) };
    // a two-letter signature (BMP's "BM", an executable's "MZ"...) at the start of a text is still a text
    if ((sniffed.kind === 'other' || sniffed.mime === 'image/bmp') && looksLikeText(b)) return sniffText(b);
    return sniffed;
  }
  // %PDF- may follow a few bytes of junk (the PDF reference allows it in the first 1024 bytes)
  if (ascii(b, 0, 1024).includes('%PDF-')) return { mime: 'application/pdf', kind: 'pdf' };
  // the package answers XML for `<?xml`: an SVG is one too, and never an image
  return sniffText(b);
}

/** The family a declared Content-Type promises (undefined: nothing any upload accepts). */
function expectedKind(declared: string): FileKind | undefined {
  const ct = declared.split(';')[0]!.trim().toLowerCase();
  if (ct === 'image/svg+xml') return undefined;
  if (ct.startsWith('image/')) return 'image';
  if (ct.startsWith('video/')) return 'video';
  if (ct === 'application/pdf') return 'pdf';
  if (ct === 'application/msword' || ct === DOCX) return 'word';
  if (ct === 'text/plain' || ct === 'text/csv' || ct === 'application/vnd.ms-excel') return 'text';
  if (ct === 'application/pkcs7-mime') return 'cms';
  return undefined;
}

/** A Word file may be a bare zip to the package: the first SNIFF_BYTES do not always reach its word/ entries. */
const fits = (sniffed: FileKind, expected: FileKind) => sniffed === expected || (expected === 'word' && sniffed === 'zip');

export const FILE_TYPE_MESSAGES = {
  image: (name: string, formats = 'JPG, PNG o WebP') => `Il file «${name}» non è un'immagine valida: carica una foto ${formats}`,
  svg: (name: string) => `Il file «${name}» è un'immagine SVG, che non è ammessa: carica una foto JPG, PNG o WebP`,
  video: (name: string) => `Il file «${name}» non è un video valido: carica un video MP4, MOV, WebM o AVI`,
  pdf: (name: string) => `Il file «${name}» non è un PDF valido`,
  word: (name: string) => `Il file «${name}» non è un documento Word valido`,
  text: (name: string) => `Il file «${name}» non è un file di testo valido`,
  cms: (name: string) => `Il file «${name}» non è un file firmato digitalmente (.p7m) valido`,
  other: (name: string) => `Il file «${name}» non è di un tipo ammesso`,
} as const;

export interface TypeCheck {
  /** the file's name as the user knows it (shown in the message) */
  name: string;
  /** the Content-Type declared by the browser (the one the upload was signed for) */
  declared: string;
  /** when set, only these real types (e.g. JPEG and PNG for the identity check) */
  allowed?: readonly string[];
  /** how `allowed` reads in the message, e.g. 'JPG o PNG' */
  allowedLabel?: string;
}

/**
 * THE rule: why a file of this real type (sniffFileType's answer) may not be uploaded as
 * `declared` (an Italian message naming the file), or undefined when it may: an `image/*`
 * must be a photo (never SVG), a `video/*` a video, a PDF a PDF, a Word file a Word file, a
 * text a text (no markup, nothing binary).
 */
export function typeRefusal({ name, declared, allowed, allowedLabel }: TypeCheck, sniffed: SniffedType | undefined): string | undefined {
  const expected = expectedKind(declared);
  const ct = declared.split(';')[0]!.trim().toLowerCase();
  if (sniffed?.mime === 'image/svg+xml' || ct === 'image/svg+xml') return FILE_TYPE_MESSAGES.svg(name);
  const message =
    expected === 'image' ? FILE_TYPE_MESSAGES.image(name, allowedLabel)
    : expected === 'video' ? FILE_TYPE_MESSAGES.video(name)
    : expected === 'pdf' ? FILE_TYPE_MESSAGES.pdf(name)
    : expected === 'word' ? FILE_TYPE_MESSAGES.word(name)
    : expected === 'text' ? FILE_TYPE_MESSAGES.text(name)
    : expected === 'cms' ? FILE_TYPE_MESSAGES.cms(name)
    : FILE_TYPE_MESSAGES.other(name);
  if (!sniffed || !expected || !fits(sniffed.kind, expected)) return message;
  if (allowed && !allowed.includes(sniffed.mime)) return message;
  return undefined;
}

/** typeRefusal of the file whose first bytes (SNIFF_BYTES are enough) are `head`. */
export async function fileTypeRefusal(check: TypeCheck & { head: Uint8Array }): Promise<string | undefined> {
  return typeRefusal(check, await sniffFileType(check.head));
}
