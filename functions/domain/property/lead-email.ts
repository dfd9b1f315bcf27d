import { escapeHtml } from '../html';
import { formatDateTime, formatDecimal, formatEuro, formatNumber } from '../format';
import { provinceByCode } from '../places/provinces';
import {
  CONDITION_LABELS,
  ENERGY_CLASS_LABELS,
  FEATURE_LABELS,
  floorLabel,
  labelOf,
  OMI_CATEGORY_LABELS,
  PROPERTY_TYPE_LABELS,
  YES_NO_LABELS,
} from './enums';
import type { PropertyAttributes } from './schema';

/**
 * The lead notification (send-lead-notification, spec 000 section 7 step 5) to the back
 * office: every field of the spec's body (firstName, lastName, email, phone, address,
 * province, city, desiredAmount, propertyType, features, condominiumFees, surfaceArea,
 * numRooms, numBathrooms, floor, condition, buildYear) plus the fields the earlier product
 * dropped, the rooms and media, the source and the first valuation. Italian HTML (every
 * value escaped) and plain text. Pure: the outbox stores what this returns.
 */
export interface LeadEmailInput extends Omit<PropertyAttributes, 'privacyConsent' | 'cityIstat'> {
  propertyId: string;
  createdAt: string;
  rooms: readonly { name: string; media: number }[];
  valuation?: { min: number; max: number; avg: number; source: string } | { unavailable: string } | null;
  /** link to the admin review page */
  reviewUrl?: string;
}

interface RenderedEmail {
  subject: string;
  html: string;
  text: string;
}

const DASH = '—';
const euro = (v: number | null) => (v === null || v === undefined ? DASH : formatEuro(v));
const num = (v: number | null) => (v === null || v === undefined ? DASH : formatNumber(v));
const sqm = (v: number | null) => (v === null || v === undefined ? DASH : `${formatDecimal(v)} m²`);
const txt = (v: string | null | undefined) => (v === null || v === undefined || v === '' ? DASH : v);
const yesNo = (v: boolean) => (v ? 'Sì' : 'No');
const answer = (v: string) => labelOf(YES_NO_LABELS, v) || DASH;

type Row = [label: string, value: string];

function leadEmailSections(p: LeadEmailInput): { title: string; rows: Row[] }[] {
  const province = p.province ? `${provinceByCode(p.province)?.name ?? p.province} (${p.province})` : DASH;
  const sections: { title: string; rows: Row[] }[] = [
    {
      title: 'Contatto',
      rows: [
        ['Nome', txt(p.firstName)],
        ['Cognome', txt(p.lastName)],
        ['Email', txt(p.email)],
        ['Cellulare', txt(p.phone)],
      ],
    },
    {
      title: 'Immobile',
      rows: [
        ['Indirizzo', txt(p.address)],
        ['Comune', txt(p.city)],
        ['Provincia', province],
        ['Categoria OMI', labelOf(OMI_CATEGORY_LABELS, p.omiCategory) || DASH],
        ['Tipologia', labelOf(PROPERTY_TYPE_LABELS, p.propertyType) || DASH],
        ['Importo desiderato', euro(p.desiredAmount)],
        ["Durata dell'opzione scelta", `${p.optionDuration} mesi`],
        ['Superficie', sqm(p.surfaceArea)],
        ['Locali', num(p.numRooms)],
        ['Bagni', num(p.numBathrooms)],
        ['Piano', p.floor ? floorLabel(p.floor) : DASH],
        ['Terrazzo', p.hasTerrace ? `Sì (${num(p.numTerraces)} terrazzi, ${sqm(p.terraceSurfaceArea)})` : 'No'],
      ],
    },
    {
      title: 'Caratteristiche e condizioni',
      rows: [
        ['Spese condominiali mensili', euro(p.condominiumFees)],
        [
          'Spese straordinarie deliberate',
          p.hasExtraordinaryExpenses === 'si'
            ? `Sì: ${txt(p.extraordinaryExpensesDetails)} (${euro(p.extraordinaryExpensesAmount)})`
            : answer(p.hasExtraordinaryExpenses),
        ],
        ['Caratteristiche', p.features.length ? p.features.map((f) => labelOf(FEATURE_LABELS, f)).join(', ') : DASH],
        ['Stato', labelOf(CONDITION_LABELS, p.condition) || DASH],
        ['Anno di costruzione', p.buildYear === null ? DASH : String(p.buildYear)],
        ['Box', p.hasBox ? `Sì (${num(p.numBox)})` : 'No'],
        ['Garage', p.hasGarage ? `Sì (${num(p.numGarage)})` : 'No'],
        ['Abusi edilizi', p.hasAbuses === 'si' ? `Sì: ${txt(p.abusesDetails)}` : answer(p.hasAbuses)],
        ['Ipoteche', p.hasHypothecs === 'si' ? `Sì (${num(p.numHypothecs)})` : answer(p.hasHypothecs)],
        ['APE', p.hasApe === 'si' ? `Sì, classe ${labelOf(ENERGY_CLASS_LABELS, p.apeClass) || DASH}` : answer(p.hasApe)],
        ['Infiltrazioni o muffa', p.hasWaterInfiltrations ? `Sì: ${txt(p.waterInfiltrationsDetails)}` : yesNo(false)],
        ['Note', txt(p.notes)],
      ],
    },
    {
      title: 'Foto e video',
      rows: p.rooms.length
        ? p.rooms.map((r): Row => [r.name, r.media === 1 ? '1 file' : `${r.media} file`])
        : [['Stanze', 'Nessuna stanza aggiunta']],
    },
  ];
  const v = p.valuation;
  const valuation: Row[] = !v
    ? [['Stima OMI', 'Non calcolata (dati insufficienti)']]
    : 'unavailable' in v
      ? [['Stima OMI', `Non disponibile: ${v.unavailable}`]]
      : [
          ['Stima OMI', `${euro(v.min)} - ${euro(v.max)} (media ${euro(v.avg)})`],
          ['Fonte', v.source],
        ];
  sections.push({
    title: 'Richiesta',
    rows: [
      ['Data', formatDateTime(p.createdAt)],
      ['Fonte (id)', txt(p.sourceId)],
      ['Codice richiesta', p.propertyId],
      ...valuation,
    ],
  });
  return sections;
}

export function renderLeadEmail(p: LeadEmailInput): RenderedEmail {
  const place = [p.city, p.province].filter(Boolean).join(' ');
  const who = `${p.firstName} ${p.lastName}`.trim() || 'senza dati di contatto';
  const subject = `Nuovo immobile candidato: ${p.address}${place ? `, ${place}` : ''} (${who})`.replace(/[\r\n]+/g, ' ');
  const sections = leadEmailSections(p);

  const text = [
    'Un nuovo immobile è stato candidato dal sito.',
    '',
    ...sections.flatMap((s) => [s.title.toUpperCase(), ...s.rows.map(([k, v]) => `${k}: ${v}`), '']),
    ...(p.reviewUrl ? [`Apri l'istruttoria: ${p.reviewUrl}`, ''] : []),
  ].join('\n');

  const th = 'style="text-align:left;padding:4px 12px 4px 0;color:#555;font-weight:normal;vertical-align:top;white-space:nowrap"';
  const td = 'style="padding:4px 0;color:#111;vertical-align:top"';
  const html = `<!doctype html>
<html lang="it"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>
<body style="font-family:Arial,Helvetica,sans-serif;font-size:14px;line-height:1.4;color:#111">
<h1 style="font-size:20px;color:#223d73;margin:0 0 12px">Nuovo immobile candidato</h1>
<p>Un nuovo immobile è stato candidato dal sito.</p>
${sections
  .map(
    (s) => `<h2 style="font-size:16px;color:#ff6603;margin:20px 0 6px">${escapeHtml(s.title)}</h2>
<table role="presentation" style="border-collapse:collapse">
${s.rows.map(([k, v]) => `<tr><th scope="row" ${th}>${escapeHtml(k)}</th><td ${td}>${escapeHtml(v).replace(/\n/g, '<br>')}</td></tr>`).join('\n')}
</table>`,
  )
  .join('\n')}
${p.reviewUrl ? `<p style="margin-top:20px"><a href="${escapeHtml(p.reviewUrl)}" style="color:#223d73">Apri l'istruttoria</a></p>` : ''}
</body></html>`;
  return { subject, html, text };
}
