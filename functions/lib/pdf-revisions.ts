/**
 * What the incremental updates appended to a PDF change (PAdES: the signatures are appended to
 * the generated PDF). A PDF reader shows the last definition of each object, so an update that
 * a signature covers could replace a page's content, add a page or put an annotation over the
 * text, and the signature would still verify. `changesBeyondSignatures` allows only what a
 * signature adds: new objects (signature dictionaries, signature fields, their appearances,
 * cross-reference and object streams, validation data) and new versions of the catalog (its
 * AcroForm, DSS, Perms, Metadata, Extensions, Version), of a page (its /Annots, references
 * only), of the document information and of the XMP metadata. Anything else is reported.
 *
 * Objects are read from the text and from object streams (FlateDecode), with no PDF library:
 * pure computation on the bytes, as lib/digital-signature.ts.
 */
import { inflateSync } from 'node:zlib';

const latin1 = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');

const WHITE = /[\0\t\n\f\r ]/;
const DELIMITER = /[()<>[\]{}/%]/;

/** One token of PDF syntax: a delimiter, a name, a string (its raw text), a number or a keyword. */
function tokenize(text: string, limit = Infinity): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < text.length && out.length < limit) {
    const c = text[i]!;
    if (WHITE.test(c)) {
      i++;
    } else if (c === '%') {
      while (i < text.length && text[i] !== '\n' && text[i] !== '\r') i++;
    } else if (text.startsWith('<<', i) || text.startsWith('>>', i)) {
      out.push(text.slice(i, i + 2));
      i += 2;
    } else if (c === '[' || c === ']' || c === '{' || c === '}') {
      out.push(c);
      i++;
    } else if (c === '(') {
      // a literal string: balanced parentheses, backslash escapes
      let depth = 0;
      const start = i;
      for (; i < text.length; i++) {
        if (text[i] === '\\') i++;
        else if (text[i] === '(') depth++;
        else if (text[i] === ')' && --depth === 0) break;
      }
      out.push(text.slice(start, ++i));
    } else if (c === '<') {
      const end = text.indexOf('>', i);
      out.push(`<${text.slice(i + 1, end < 0 ? text.length : end).replace(/\s+/g, '').toUpperCase()}>`);
      i = end < 0 ? text.length : end + 1;
    } else if (c === '/') {
      let j = i + 1;
      while (j < text.length && !WHITE.test(text[j]!) && !DELIMITER.test(text[j]!)) j++;
      // #xx escapes name the same name
      out.push(`/${text.slice(i + 1, j).replace(/#([0-9A-Fa-f]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)))}`);
      i = j;
    } else {
      let j = i;
      while (j < text.length && !WHITE.test(text[j]!) && !DELIMITER.test(text[j]!)) j++;
      if (j === i) j++;
      const word = text.slice(i, j);
      // 1, 1.0 and 1.00 are the same number
      out.push(/^[+-]?(\d+\.?\d*|\.\d+)$/.test(word) ? String(Number(word)) : word);
      i = j;
    }
  }
  return out;
}

/** The tokens of one value starting at `tokens[at]`: its end index (exclusive). An `n g R` reference is one value. */
function valueEnd(tokens: readonly string[], at: number): number {
  const t = tokens[at];
  if (t === '<<' || t === '[') {
    let depth = 0;
    for (let i = at; i < tokens.length; i++) {
      if (tokens[i] === '<<' || tokens[i] === '[') depth++;
      else if ((tokens[i] === '>>' || tokens[i] === ']') && --depth === 0) return i + 1;
    }
    return tokens.length;
  }
  if (/^\d+$/.test(t ?? '') && /^\d+$/.test(tokens[at + 1] ?? '') && tokens[at + 2] === 'R') return at + 3;
  return at + 1;
}

/** The top-level entries of a dictionary object (its tokens from `<<`): key -> the value's tokens joined; null when not a dictionary. */
function dictEntries(tokens: readonly string[]): Map<string, string> | null {
  if (tokens[0] !== '<<') return null;
  const entries = new Map<string, string>();
  let i = 1;
  while (i < tokens.length && tokens[i] !== '>>') {
    const key = tokens[i]!;
    if (!key.startsWith('/')) return null;
    const end = valueEnd(tokens, i + 1);
    entries.set(key, tokens.slice(i + 1, end).join(' '));
    i = end;
  }
  return entries;
}

interface PdfObject {
  number: number;
  /** the object's tokens, up to its stream data (a stream's dictionary only) */
  tokens: string[];
  isStream: boolean;
}

// whitespace or comments between the number, the generation and `obj`, as a reader allows
const OBJ = /(\d+)(?:\s|%[^\r\n]*)+(\d+)(?:\s|%[^\r\n]*)+obj\b/g;

/**
 * The indirect objects defined in `text` (from `from`), in file order, with those inside object
 * streams; `undefined` when an object stream cannot be read (a filter other than FlateDecode,
 * corrupt data): what it holds is unknown.
 */
function objectsOf(bytes: Uint8Array, from: number): PdfObject[] | undefined {
  const text = latin1(bytes);
  const out: PdfObject[] = [];
  OBJ.lastIndex = from;
  for (let m = OBJ.exec(text); m; m = OBJ.exec(text)) {
    const bodyStart = m.index + m[0].length;
    const streamAt = text.indexOf('stream', bodyStart);
    const endObj = text.indexOf('endobj', bodyStart);
    const isStream = streamAt >= 0 && (endObj < 0 || streamAt < endObj) && !text.startsWith('endstream', streamAt - 3);
    const dictText = text.slice(bodyStart, isStream ? streamAt : endObj < 0 ? text.length : endObj);
    const tokens = tokenize(dictText);
    out.push({ number: Number(m[1]), tokens, isStream });
    if (!isStream) {
      if (endObj >= 0) OBJ.lastIndex = endObj + 6;
      continue;
    }
    // the stream's data: Length bytes after the end of line that follows `stream`
    let dataStart = streamAt + 6;
    if (text[dataStart] === '\r') dataStart++;
    if (text[dataStart] === '\n') dataStart++;
    const entries = dictEntries(tokens);
    const declared = Number(entries?.get('/Length'));
    const endStream = text.indexOf('endstream', Number.isInteger(declared) ? dataStart + declared : dataStart);
    if (endStream < 0) return undefined;
    const dataEnd = Number.isInteger(declared) && declared >= 0 && dataStart + declared <= endStream ? dataStart + declared : endStream;
    OBJ.lastIndex = endStream + 9;
    if (entries?.get('/Type') !== '/ObjStm') continue;
    const inner = objectStream(bytes.subarray(dataStart, dataEnd), entries);
    if (!inner) return undefined;
    out.push(...inner);
  }
  return out;
}

/** The objects of an object stream (/Type /ObjStm, /N pairs of number and offset, objects after /First). */
function objectStream(data: Uint8Array, entries: Map<string, string>): PdfObject[] | undefined {
  const filter = entries.get('/Filter');
  if (filter !== undefined && filter !== '/FlateDecode' && filter !== '[ /FlateDecode ]') return undefined;
  let text: string;
  try {
    text = latin1(filter === undefined ? data : new Uint8Array(inflateSync(data)));
  } catch {
    return undefined;
  }
  const n = Number(entries.get('/N'));
  const first = Number(entries.get('/First'));
  if (!Number.isInteger(n) || !Number.isInteger(first) || n < 0 || first < 0 || first > text.length) return undefined;
  const header = tokenize(text.slice(0, first), 2 * n);
  if (header.length < 2 * n) return undefined;
  const out: PdfObject[] = [];
  for (let k = 0; k < n; k++) {
    const number = Number(header[2 * k]);
    const offset = first + Number(header[2 * k + 1]);
    const next = k + 1 < n ? first + Number(header[2 * k + 3]) : text.length;
    if (!Number.isInteger(number) || !(offset >= first && offset <= next)) return undefined;
    out.push({ number, tokens: tokenize(text.slice(offset, next)), isStream: false });
  }
  return out;
}

/** Keys a new version of an original object may change, by the original's role. */
const CATALOG_KEYS = new Set(['/AcroForm', '/DSS', '/Perms', '/Metadata', '/Extensions', '/Version']);
const PAGE_KEYS = new Set(['/Annots']);
const REFERENCES = /^(\[( \d+ \d+ R)* \]|\d+ \d+ R)$/;

/** The reason a new object is not something a signature adds, or null. */
function newObjectProblem(o: PdfObject): string | null {
  const entries = dictEntries(o.tokens);
  if (!entries) return null;
  const type = entries.get('/Type');
  if (type === '/Catalog' || type === '/Pages' || type === '/Page') return `oggetto ${o.number}: ${type} nuovo`;
  const subtype = entries.get('/Subtype');
  if (type === '/Annot' || (subtype !== undefined && entries.has('/Rect'))) {
    if (subtype !== '/Widget' || entries.get('/FT') !== '/Sig') return `oggetto ${o.number}: annotazione ${subtype ?? ''} che non è un campo firma`;
  }
  return null;
}

/** The reason a new version of an original object changes more than a signature does, or null. */
function changedObjectProblem(before: PdfObject, after: PdfObject, infoNumber: number | null): string | null {
  if (before.number === infoNumber) return null; // the document information: metadata, never shown on the page
  const old = dictEntries(before.tokens);
  const now = dictEntries(after.tokens);
  if (!old || !now) return `oggetto ${before.number} ridefinito`;
  const type = old.get('/Type');
  if (type === '/Metadata') return null; // XMP metadata
  const allowed = type === '/Catalog' ? CATALOG_KEYS : type === '/Page' ? PAGE_KEYS : null;
  if (!allowed) return `oggetto ${before.number} (${type ?? 'senza tipo'}) ridefinito`;
  for (const key of new Set([...old.keys(), ...now.keys()])) {
    if (allowed.has(key)) continue;
    if (old.get(key) !== now.get(key)) return `oggetto ${before.number} (${type}): ${key} cambiato`;
  }
  // a page's annotations are references (an inline annotation would escape the checks of the new objects)
  const annots = now.get('/Annots');
  if (type === '/Page' && annots !== undefined && !REFERENCES.test(annots)) return `oggetto ${before.number}: /Annots non fatto di riferimenti`;
  return null;
}

/**
 * What the bytes after `originalLength` change beyond adding signatures, as a short reason
 * (the first found), or null when they only add signatures. `file` starts with the original.
 */
export function changesBeyondSignatures(file: Uint8Array, originalLength: number): string | null {
  const original = objectsOf(file.subarray(0, originalLength), 0);
  const appended = objectsOf(file, originalLength);
  if (!original || !appended) return 'flusso di oggetti non leggibile';
  const before = new Map<number, PdfObject>();
  for (const o of original) before.set(o.number, o);
  const trailerInfo = /\/Info\s+(\d+)\s+\d+\s+R/.exec(latin1(file.subarray(0, originalLength)));
  const infoNumber = trailerInfo ? Number(trailerInfo[1]) : null;
  for (const o of appended) {
    const old = before.get(o.number);
    const problem = old ? changedObjectProblem(old, o, infoNumber) : newObjectProblem(o);
    if (problem) return problem;
  }
  return null;
}
