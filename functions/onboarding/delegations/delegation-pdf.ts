/** A delegation form as a PDF: the texts of functions/domain/onboarding/delegation-document.ts laid out by the one PDF helper. */
import { renderDocumentPdf } from '../../lib/pdf';
import { delegationDocument, type DelegationDocumentInput } from '../../domain/onboarding/delegation-document';

export function renderDelegationPdf(input: DelegationDocumentInput): Promise<Uint8Array> {
  return renderDocumentPdf(delegationDocument(input));
}
