import { escapeHtml } from './html';

/**
 * The e-mail with the sign-up confirmation code. On AWS it is the user pool's verification
 * message (Cognito puts the code where `{####}` stands: infra/stacks/auth-stack.ts); the local
 * runtime sends the same text through the local SES (infra/local/emulators.ts).
 */
export const CONFIRMATION_MAIL_SUBJECT = 'Il tuo codice di conferma Opzione Casa';

/** The code's placeholder in Cognito's verification message. */
export const COGNITO_CODE_PLACEHOLDER = '{####}';

/** HTML body (Cognito's verification message is one body, HTML allowed). */
export function confirmationCodeHtml(code: string): string {
  return [
    '<p>Ciao,</p>',
    '<p>per completare la registrazione su Opzione Casa inserisci questo codice di conferma:</p>',
    `<p style="font-size:24px;font-weight:bold;letter-spacing:4px">${code === COGNITO_CODE_PLACEHOLDER ? code : escapeHtml(code)}</p>`,
    '<p>Il codice vale 24 ore. Se non hai chiesto tu la registrazione, ignora questa e-mail.</p>',
  ].join('\n');
}

export function confirmationCodeMail(code: string): { subject: string; html: string; text: string } {
  return {
    subject: CONFIRMATION_MAIL_SUBJECT,
    html: confirmationCodeHtml(code),
    text: [
      'Ciao,',
      'per completare la registrazione su Opzione Casa inserisci questo codice di conferma:',
      code,
      'Il codice vale 24 ore. Se non hai chiesto tu la registrazione, ignora questa e-mail.',
    ].join('\n\n'),
  };
}
