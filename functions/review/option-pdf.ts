/** The option document as a PDF: the texts of functions/domain/review/option-document.ts laid out by the one PDF helper. */
import { renderDocumentPdf } from '../lib/pdf';
import { optionDocument, type OptionDocumentInput } from '../domain/review/option-document';

export function renderOptionPdf(input: OptionDocumentInput): Promise<Uint8Array> {
  return renderDocumentPdf(optionDocument(input));
}
