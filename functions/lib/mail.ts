import { SendEmailCommand } from '@aws-sdk/client-sesv2';
import { ses } from './aws/ses';
import { config } from './config';

export { escapeHtml } from '../domain/html';

/**
 * Generic e-mail through SES (SESv2 SendEmail, Simple content with an HTML and a plain-text
 * part, UTF-8). Every address is validated here: the local SES emulator accepts anything,
 * SES refuses malformed ones only at send time, and a header injection must never pass.
 */
export interface MailMessage {
  to: readonly string[];
  subject: string;
  html: string;
  text: string;
  replyTo?: readonly string[];
  /** defaults to MAIL_FROM */
  from?: string;
  /** text files sent with the message (e.g. a calendar invitation, text/calendar) */
  attachments?: readonly MailAttachment[];
}

export interface MailAttachment {
  fileName: string;
  contentType: string;
  /** the file's text (UTF-8) */
  content: string;
}

/** A permanent failure: retrying cannot help (bad address, empty message). */
export class PermanentMailError extends Error {
  override name = 'PermanentMailError';
}

// RFC 5322 "dot-atom" local part and a domain of labels with a TLD of 2+ letters; no spaces,
// no CR/LF, no display names: the addresses we send to are plain ones.
const ADDRESS =
  /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*@([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}$/;

export function isValidEmailAddress(address: string): boolean {
  return typeof address === 'string' && address.length <= 254 && ADDRESS.test(address) && address.split('@')[0]!.length <= 64;
}

function checkAddresses(label: string, list: readonly string[]): string[] {
  const out = list.map((a) => a.trim());
  const bad = out.filter((a) => !isValidEmailAddress(a));
  if (bad.length) throw new PermanentMailError(`Indirizzo ${label} non valido: ${bad.join(', ')}`);
  return out;
}

export async function sendMail(message: MailMessage): Promise<{ messageId: string }> {
  const to = checkAddresses('destinatario', message.to);
  if (!to.length) throw new PermanentMailError('Nessun destinatario');
  const [from] = checkAddresses('mittente', [message.from ?? config().MAIL_FROM]);
  const replyTo = message.replyTo ? checkAddresses('di risposta', message.replyTo) : undefined;
  const subject = message.subject.replace(/[\r\n]+/g, ' ').trim();
  if (!subject || (!message.html && !message.text)) throw new PermanentMailError('Messaggio vuoto');
  const res = await ses().send(
    new SendEmailCommand({
      FromEmailAddress: from,
      Destination: { ToAddresses: to },
      ...(replyTo?.length ? { ReplyToAddresses: replyTo } : {}),
      Content: {
        Simple: {
          Subject: { Data: subject, Charset: 'UTF-8' },
          Body: {
            Html: { Data: message.html, Charset: 'UTF-8' },
            Text: { Data: message.text, Charset: 'UTF-8' },
          },
          ...(message.attachments?.length
            ? {
                Attachments: message.attachments.map((a) => ({
                  FileName: a.fileName.replace(/[\r\n"\\/]+/g, '_'),
                  ContentType: a.contentType,
                  ContentDisposition: 'ATTACHMENT' as const,
                  RawContent: Buffer.from(a.content, 'utf8'),
                })),
              }
            : {}),
        },
      },
    }),
  );
  return { messageId: res.MessageId ?? '' };
}
