import { escapeHtml } from './html';
import type { AgentDecision } from './users';

/**
 * The e-mail to an agente_immobiliare once an admin decides on the account: Italian HTML
 * (values escaped) and plain text. Pure: the outbox stores what this returns.
 */
export function renderAgentDecisionEmail(input: { fullName: string | null; decision: AgentDecision; signInUrl: string }): {
  subject: string;
  html: string;
  text: string;
} {
  const greeting = input.fullName?.trim() ? `Gentile ${input.fullName.trim()},` : 'Gentile agente,';
  const lines =
    input.decision === 'approve'
      ? [
          'il tuo account agente su OpzioneCasa è stato approvato.',
          "Accedi di nuovo per entrare nell'Area Agente: se eri già connesso, esci e accedi di nuovo.",
        ]
      : [
          'il tuo account agente su OpzioneCasa non è stato approvato.',
          'Per informazioni rispondi a questa e-mail o contatta il nostro staff.',
        ];
  const subject = input.decision === 'approve' ? 'Il tuo account agente è stato approvato' : 'Il tuo account agente non è stato approvato';
  const link = input.decision === 'approve' ? input.signInUrl : null;
  const html = [
    `<p>${escapeHtml(greeting)}</p>`,
    ...lines.map((l) => `<p>${escapeHtml(l)}</p>`),
    ...(link ? [`<p><a href="${escapeHtml(link)}">Accedi a OpzioneCasa</a></p>`] : []),
    '<p>Il team OpzioneCasa</p>',
  ].join('\n');
  const text = [greeting, '', ...lines, ...(link ? ['', `Accedi: ${link}`] : []), '', 'Il team OpzioneCasa'].join('\n');
  return { subject, html, text };
}
