import { escapeHtml } from '../html';

/** A rendered e-mail: what the outbox stores. */
export interface RenderedEmail {
  subject: string;
  html: string;
  text: string;
}

export type MailRow = [label: string, value: string];

/**
 * The Italian HTML layout of the seller e-mails: title, paragraphs, a table of figures and a
 * call-to-action link. Every value is escaped here; callers pass plain text.
 */
export function renderSellerMail(m: {
  subject: string;
  title: string;
  greeting: string;
  paragraphs: readonly string[];
  rows?: readonly MailRow[];
  action?: { label: string; url: string };
  closing?: readonly string[];
  /** blocks after the figures, built and escaped by their own renderer (e.g. domain/omi/trend-mail.ts) */
  blocks?: readonly { html: string; text: readonly string[] }[];
}): RenderedEmail {
  const subject = m.subject.replace(/[\r\n]+/g, ' ').trim();
  const th = 'style="text-align:left;padding:4px 12px 4px 0;color:#555;font-weight:normal;vertical-align:top;white-space:nowrap"';
  const td = 'style="padding:4px 0;color:#111;vertical-align:top;font-weight:bold"';
  const closing = m.closing ?? ['Cordiali saluti,', 'Il team di Opzione Casa'];
  const html = `<!doctype html>
<html lang="it"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>
<body style="font-family:Arial,Helvetica,sans-serif;font-size:14px;line-height:1.5;color:#111">
<h1 style="font-size:20px;color:#223d73;margin:0 0 12px">${escapeHtml(m.title)}</h1>
<p>${escapeHtml(m.greeting)}</p>
${m.paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n')}
${
  m.rows?.length
    ? `<table role="presentation" style="border-collapse:collapse;margin:12px 0">
${m.rows.map(([k, v]) => `<tr><th scope="row" ${th}>${escapeHtml(k)}</th><td ${td}>${escapeHtml(v)}</td></tr>`).join('\n')}
</table>`
    : ''
}
${(m.blocks ?? []).map((b) => b.html).join('\n')}
${
  m.action
    ? `<p style="margin:20px 0"><a href="${escapeHtml(m.action.url)}" style="display:inline-block;background:#ff6603;color:#fff;padding:10px 18px;border-radius:6px;text-decoration:none;font-weight:bold">${escapeHtml(m.action.label)}</a></p>
<p style="font-size:12px;color:#555">Se il pulsante non funziona, copia questo indirizzo nel browser:<br>${escapeHtml(m.action.url)}</p>`
    : ''
}
<p>${closing.map(escapeHtml).join('<br>')}</p>
</body></html>`;
  const text = [
    m.greeting,
    '',
    ...m.paragraphs.flatMap((p) => [p, '']),
    ...(m.rows?.length ? [...m.rows.map(([k, v]) => `${k}: ${v}`), ''] : []),
    ...(m.blocks ?? []).flatMap((b) => [...b.text, '']),
    ...(m.action ? [`${m.action.label}: ${m.action.url}`, ''] : []),
    ...closing,
  ].join('\n');
  return { subject, html, text };
}

/** APP_URL + path, without a doubled slash. */
export function appLink(appUrl: string, path: string): string {
  return `${appUrl.replace(/\/+$/, '')}${path}`;
}
