/**
 * THE document PDF of the product (option, delegations): a title, a subtitle and titled
 * sections of lines, A4, standard Helvetica (pdf-lib). The texts come from pure builders in
 * functions/domain; this only lays them out.
 */
import { PDFDocument, rgb, StandardFonts, type PDFFont } from 'pdf-lib';

export interface PdfDocumentContent {
  title: string;
  subtitle: string;
  sections: { title: string; lines: string[] }[];
}

/** Characters the standard fonts cannot encode become spaces (Intl's narrow spaces, for one). */
export function winAnsi(text: string): string {
  return text.replace(/[^\x20-\x7E\u00A0-\u00FF€—–’‘“”…•]/g, ' ');
}

/**
 * The text in lines no wider than `width`: broken between words, and a word wider than a
 * line on its own (a 200-character address without spaces, a long e-mail) broken between its
 * characters, so nothing runs off the page.
 */
export function wrap(text: string, font: PDFFont, size: number, width: number): string[] {
  const fits = (t: string) => font.widthOfTextAtSize(t, size) <= width;
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const next = line ? `${line} ${word}` : word;
    if (fits(next)) {
      line = next;
      continue;
    }
    if (line) lines.push(line);
    line = '';
    // the word alone: as many characters per line as fit (at least one, so it always ends)
    let rest = word;
    while (!fits(rest)) {
      let n = 1;
      while (n < rest.length && fits(rest.slice(0, n + 1))) n++;
      lines.push(rest.slice(0, n));
      rest = rest.slice(n);
    }
    line = rest;
  }
  if (line) lines.push(line);
  return lines;
}

const A4: [number, number] = [595.28, 841.89];

/** The number of pages of a PDF (the signed copy photographed page by page must have as many). */
export async function pdfPageCount(bytes: Uint8Array): Promise<number> {
  return (await PDFDocument.load(bytes, { updateMetadata: false })).getPageCount();
}

export async function renderDocumentPdf(doc: PdfDocumentContent): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  pdf.setTitle(winAnsi(doc.title));
  pdf.setLanguage('it-IT');
  pdf.setProducer('Opzione Casa');
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const margin = 56;
  let page = pdf.addPage(A4);
  const width = page.getWidth() - margin * 2;
  let y = page.getHeight() - margin;
  const write = (text: string, font: PDFFont, size: number, color = rgb(0.07, 0.07, 0.07), gap = 4) => {
    for (const line of wrap(winAnsi(text), font, size, width)) {
      if (y < margin + size) {
        page = pdf.addPage(A4);
        y = page.getHeight() - margin;
      }
      page.drawText(line, { x: margin, y: y - size, size, font, color });
      y -= size + gap;
    }
  };
  // brand colours: navy headings, orange section titles
  write(doc.title, bold, 18, rgb(0.13, 0.24, 0.45));
  write(doc.subtitle, regular, 10, rgb(0.35, 0.35, 0.35));
  for (const section of doc.sections) {
    y -= 14;
    write(section.title, bold, 13, rgb(1, 0.4, 0.01));
    for (const line of section.lines) write(line, regular, 11);
  }
  return pdf.save();
}
