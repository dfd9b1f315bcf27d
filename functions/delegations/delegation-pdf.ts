/** A delegation form as a PDF (pdf-lib, standard Helvetica: WinAnsi text only), in the option PDF's style. */
import { PDFDocument, rgb, StandardFonts, type PDFFont } from 'pdf-lib';
import { delegationDocument, type DelegationDocumentInput } from '../domain/onboarding/delegation-document';
import { winAnsi } from '../review/option-pdf';

function wrap(text: string, font: PDFFont, size: number, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const w of text.split(/\s+/)) {
    const next = line ? `${line} ${w}` : w;
    if (font.widthOfTextAtSize(next, size) > width && line) {
      lines.push(line);
      line = w;
    } else line = next;
  }
  if (line) lines.push(line);
  return lines;
}

export async function renderDelegationPdf(input: DelegationDocumentInput): Promise<Uint8Array> {
  const doc = delegationDocument(input);
  const pdf = await PDFDocument.create();
  pdf.setTitle(winAnsi(doc.title));
  pdf.setLanguage('it-IT');
  pdf.setProducer('Opzione Casa');
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const margin = 56;
  let page = pdf.addPage([595.28, 841.89]); // A4
  const width = page.getWidth() - margin * 2;
  let y = page.getHeight() - margin;
  const write = (text: string, font: PDFFont, size: number, color = rgb(0.07, 0.07, 0.07), gap = 4) => {
    for (const line of wrap(winAnsi(text), font, size, width)) {
      if (y < margin + size) {
        page = pdf.addPage([595.28, 841.89]);
        y = page.getHeight() - margin;
      }
      page.drawText(line, { x: margin, y: y - size, size, font, color });
      y -= size + gap;
    }
  };
  write(doc.title, bold, 18, rgb(0.13, 0.24, 0.45));
  write(doc.subtitle, regular, 10, rgb(0.35, 0.35, 0.35));
  for (const section of doc.sections) {
    y -= 14;
    write(section.title, bold, 13, rgb(1, 0.4, 0.01));
    for (const line of section.lines) write(line, regular, 11);
  }
  return pdf.save();
}
