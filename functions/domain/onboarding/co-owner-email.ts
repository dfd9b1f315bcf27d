import { appLink, renderSellerMail, type RenderedEmail } from '../review/mail-layout';
import { MAX_CO_OWNERS } from './rules';

/**
 * The subject of every co-owner invitation: fixed, never any text the seller typed (names and
 * address are attacker-controlled input; a subject is what a relay abuser would want).
 */
export const CO_OWNER_INVITATION_SUBJECT = 'Invito a verificare la tua identità di comproprietario';

/**
 * Invitation e-mails a day (fixed UTC-day windows of model/rate-limit.ts), counted per e-mail:
 * per property MAX_CO_OWNERS, so the longest list can always be invited at once (a typical
 * list of 2-4 leaves room for corrections of mistyped addresses); per seller twice that, two
 * properties' full lists. Beyond that an account is a relay, not a seller.
 */
export const CO_OWNER_INVITATION_LIMITS = {
  perPropertyPerDay: MAX_CO_OWNERS,
  perSellerPerDay: 2 * MAX_CO_OWNERS,
} as const;

export const CO_OWNER_INVITATION_MESSAGES = {
  identityNotVerified: 'Prima di invitare i comproprietari verifica la tua identità.',
  tooManyForProperty: `Oggi hai già inviato il numero massimo di inviti per questo immobile (${CO_OWNER_INVITATION_LIMITS.perPropertyPerDay}). Riprova domani.`,
  tooManyForSeller: `Oggi hai già inviato il numero massimo di inviti ai comproprietari (${CO_OWNER_INVITATION_LIMITS.perSellerPerDay}). Riprova domani.`,
} as const;

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
    subject: CO_OWNER_INVITATION_SUBJECT,
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
