/**
 * A price trend (./trend.ts) for an e-mail: HTML that mail clients render (no script, no
 * SVG, no positioning: a table per semester whose band is a coloured cell of the width of
 * the min-max range on a common scale) and the same as a plain list for the text part.
 * Every value is escaped here.
 */
import { formatNumber } from '../format';
import { escapeHtml } from '../html';
import type { PriceTrend } from './trend';

export interface TrendMailBlock {
  html: string;
  text: string[];
}

const band = (min: number | null, max: number | null) => (min === null || max === null ? 'nessun valore pubblicato' : `${formatNumber(min)} - ${formatNumber(max)} €/m²`);

/** Percent of the scale [lo, hi], to one decimal, within 0..100. */
const pct = (v: number, lo: number, hi: number) => Math.min(100, Math.max(0, Math.round(((v - lo) / (hi - lo)) * 1000) / 10));

export function renderTrendMail(trend: PriceTrend, title: string): TrendMailBlock | undefined {
  if (!trend.points.length) return undefined;
  const valued = trend.points.filter((p) => p.min !== null && p.max !== null);
  const lo = valued.length ? Math.min(...valued.map((p) => p.min!)) * 0.9 : 0;
  const hiRaw = valued.length ? Math.max(...valued.map((p) => p.max!)) : 1;
  const hi = hiRaw > lo ? hiRaw : lo + 1;
  const cell = 'style="padding:3px 8px 3px 0;vertical-align:middle;white-space:nowrap;font-size:13px;color:#111"';
  const rows = trend.points.map((p) => {
    let bar = '<span style="color:#555;font-size:12px">&mdash;</span>';
    if (p.min !== null && p.max !== null) {
      const start = pct(p.min, lo, hi);
      const width = Math.max(1, pct(p.max, lo, hi) - start);
      const rest = Math.max(0, 100 - start - width);
      const spacer = (w: number) => (w > 0 ? `<td width="${w}%" style="width:${w}%;font-size:1px;line-height:12px">&nbsp;</td>` : '');
      bar =
        `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="border-collapse:collapse;width:100%;background:#eef1f6"><tr>` +
        spacer(start) +
        `<td width="${width}%" bgcolor="#223d73" style="width:${width}%;background:#223d73;font-size:1px;line-height:12px">&nbsp;</td>` +
        spacer(rest) +
        `</tr></table>`;
    }
    return `<tr><th scope="row" ${cell.replace('color:#111', 'color:#555;font-weight:normal;text-align:left')}>${escapeHtml(p.semester)}</th><td style="padding:3px 8px 3px 0;vertical-align:middle;width:240px" width="240">${bar}</td><td ${cell}>${escapeHtml(band(p.min, p.max))}</td></tr>`;
  });
  const html = `<h2 style="font-size:16px;color:#223d73;margin:20px 0 4px">${escapeHtml(title)}</h2>
${trend.notes.map((n) => `<p style="background:#fff7e6;padding:8px;color:#5c3b00">${escapeHtml(n)}</p>`).join('\n')}
${trend.summary.map((s) => `<p style="margin:4px 0">${escapeHtml(s)}</p>`).join('\n')}
<table style="border-collapse:collapse;margin:8px 0 12px">
<caption style="text-align:left;font-size:12px;color:#555;padding-bottom:4px">Minimo e massimo al m² per semestre, dal più vecchio; la barra mostra l'intervallo su una scala comune.</caption>
${rows.join('\n')}
</table>`;
  const text = [title, ...trend.notes, ...trend.summary, ...trend.points.map((p) => `- ${p.semester}: ${band(p.min, p.max)}`)];
  return { html, text };
}
