import { appLink, renderSellerMail, type RenderedEmail } from '../review/mail-layout';

/** The invitation to a co-owner: their own identity step at APP_URL + /seller-kyc?token=... */
export interface CoOwnerInvitationInput {
  coOwnerName: string;
  sellerName: string;
  propertyAddress: string;
  propertyCity?: string | null;
  share: number;
  token: string;
  appUrl: string;
}

export function coOwnerKycUrl(appUrl: string, token: string): string {
  return appLink(appUrl, `/seller-kyc?token=${encodeURIComponent(token)}`);
}

export function renderCoOwnerInvitation(i: CoOwnerInvitationInput): RenderedEmail {
  const where = [i.propertyAddress, i.propertyCity].filter(Boolean).join(', ');
  return renderSellerMail({
    subject: `Invito a verificare la tua identità: ${where}`,
    title: 'Verifica la tua identità di comproprietario',
    greeting: `Gentile ${i.coOwnerName.trim() || 'comproprietario'},`,
    paragraphs: [
      `${i.sellerName.trim() || 'Il proprietario'} ti ha indicato come comproprietario dell'immobile in ${where}, per il quale ha chiesto un'opzione di acquisto.`,
      "Per proseguire ti chiediamo di verificare la tua identità con una foto del volto e un documento di identità, dal link qui sotto.",
    ],
    rows: [
      ['Immobile', where],
      ['Quota di proprietà', `${i.share}%`],
    ],
    action: { label: 'Verifica la tua identità', url: coOwnerKycUrl(i.appUrl, i.token) },
  });
}
