/**
 * Nothing runs off the page of a product PDF (issue 18): a delegation whose delegator lives at
 * a 200-character address (one word, as a pasted string without spaces would be) and an option
 * with long words are laid out in lines that all end inside the right margin, and no character
 * is lost. Read back from the PDF itself: every text-showing operator of every page, measured
 * with the font it is drawn in.
 */
import { inflateSync } from 'node:zlib';
import { PDFArray, PDFDict, PDFDocument, PDFName, PDFRawStream, StandardFonts, type PDFFont } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { renderDelegationPdf } from '../../functions/onboarding/delegations/delegation-pdf';
import { renderDocumentPdf, wrap } from '../../functions/lib/pdf';

const MARGIN = 56;

interface DrawnLine {
  text: string;
  x: number;
  right: number;
  pageWidth: number;
}

/** Every line drawn on every page, with where it ends (pdf-lib writes `/F size Tf`, `1 0 0 1 x y Tm`, `<hex> Tj`). */
async function drawnLines(bytes: Uint8Array): Promise<DrawnLine[]> {
  const doc = await PDFDocument.load(bytes);
  const measure = new Map<string, PDFFont>();
  const scratch = await PDFDocument.create();
  const byBaseFont: Record<string, PDFFont> = {
    '/Helvetica': await scratch.embedFont(StandardFonts.Helvetica),
    '/Helvetica-Bold': await scratch.embedFont(StandardFonts.HelveticaBold),
  };
  const out: DrawnLine[] = [];
  for (const page of doc.getPages()) {
    const fonts = page.node.Resources()!.lookup(PDFName.of('Font'), PDFDict);
    for (const [name, ref] of fonts.entries()) {
      const base = (doc.context.lookup(ref) as PDFDict).get(PDFName.of('BaseFont'))!.toString();
      measure.set(name.toString(), byBaseFont[base]!);
    }
    const contents = page.node.Contents()!;
    const streams = contents instanceof PDFArray ? contents.asArray().map((r) => doc.context.lookup(r)) : [contents];
    const text = streams.map((s) => inflateSync(Buffer.from((s as PDFRawStream).contents)).toString('latin1')).join('\n');
    let font: PDFFont | undefined;
    let size = 0;
    let x = 0;
    for (const m of text.matchAll(/(\/\S+) ([\d.]+) Tf|1 0 0 1 ([\d.-]+) ([\d.-]+) Tm|<([0-9A-Fa-f]*)> Tj/g)) {
      if (m[1]) {
        font = measure.get(m[1]);
        size = Number(m[2]);
      } else if (m[3]) x = Number(m[3]);
      else {
        const shown = Buffer.from(m[5]!, 'hex').toString('latin1');
        out.push({ text: shown, x, right: x + font!.widthOfTextAtSize(shown, size), pageWidth: page.getWidth() });
      }
    }
  }
  return out;
}

const LONG_ADDRESS = `${`Via${'Garibaldi'.repeat(25)}`.slice(0, 198)}12`;

describe('PDF lines fit the page', () => {
  it('a delegation with a 200-character address: every line ends inside the right margin, no character lost', async () => {
    expect(LONG_ADDRESS).toHaveLength(200);
    const bytes = await renderDelegationPdf({
      type: 'catasto',
      createdAt: '2025-03-01T10:00:00.000Z',
      province: { code: 'MI', name: 'Milano' },
      municipality: 'Milano',
      property: { address: LONG_ADDRESS, city: 'Milano', province: 'MI' },
      delegator: { fullName: 'Mario Rossi', fiscalCode: 'RSSMRA85T10A562S', birthDate: '1985-12-10', birthPlace: 'Roma', address: LONG_ADDRESS },
      delegatee: { company: 'Opzione Casa S.r.l.', administrator: 'Marco Ferrari' },
    });
    const lines = await drawnLines(bytes);
    expect(lines.length).toBeGreaterThan(5);
    for (const l of lines) {
      expect(l.x, l.text).toBeGreaterThanOrEqual(MARGIN - 0.01);
      expect(l.right, l.text).toBeLessThanOrEqual(l.pageWidth - MARGIN + 0.01);
    }
    // the address is all there, in order, split over lines
    const all = lines.map((l) => l.text).join('');
    expect(all.split(LONG_ADDRESS).length - 1).toBe(2);
  });

  it('long words among short ones, in a title and in a section (the option and the delegations share the layout)', async () => {
    const long = 'x'.repeat(300);
    const bytes = await renderDocumentPdf({
      title: `Opzione di acquisto ${long}`,
      subtitle: 'Sottotitolo',
      sections: [{ title: `Sezione ${long}`, lines: [`Email: ${'m'.repeat(150)}@example.it e poi altro testo normale`, 'breve'] }],
    });
    const lines = await drawnLines(bytes);
    for (const l of lines) expect(l.right, l.text).toBeLessThanOrEqual(l.pageWidth - MARGIN + 0.01);
    expect(lines.map((l) => l.text).join('')).toContain(`${'m'.repeat(150)}@example.it`.slice(0, 40));
  });

  it('wrap: keeps words whole when they fit, breaks only what cannot fit, never returns an empty or over-wide line', async () => {
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    expect(wrap('Via Roma 1, Milano', font, 11, 480)).toEqual(['Via Roma 1, Milano']);
    const lines = wrap(`Indirizzo: ${'W'.repeat(120)} fine`, font, 11, 100);
    expect(lines[0]).toBe('Indirizzo:');
    expect(lines.at(-1)!.endsWith('fine')).toBe(true);
    for (const l of lines) {
      expect(l.length).toBeGreaterThan(0);
      expect(font.widthOfTextAtSize(l, 11)).toBeLessThanOrEqual(100);
    }
    expect(lines.join('').replace(/ /g, '')).toBe(`Indirizzo:${'W'.repeat(120)}fine`);
    expect(wrap('', font, 11, 100)).toEqual([]);
  });
});
