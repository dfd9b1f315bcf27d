/**
 * Every stored field of a request, grouped and labelled in Italian for the expanded row of
 * the Dashboard Admin and for the Istruttoria page (codes through the label maps of
 * functions/domain/property/enums.ts).
 */
import { formatDateTime, formatDecimal, formatEuro, formatNumber } from '@domain/format';
import { provinceByCode } from '@domain/places/provinces';
import {
  CONDITION_LABELS,
  ENERGY_CLASS_LABELS,
  FEATURE_LABELS,
  floorLabel,
  labelOf,
  OMI_CATEGORY_LABELS,
  PROPERTY_TYPE_LABELS,
  YES_NO_LABELS,
} from '@domain/property/enums';
import { DELETED_SOURCE_LABEL, NO_SOURCE_LABEL } from '@domain/request-list';
import type { RequestDossier } from '@domain/requests';

export const DASH = '—';

type Property = RequestDossier['property'];
export interface FieldRow {
  label: string;
  value: string;
}
export interface FieldSection {
  title: string;
  rows: FieldRow[];
}

const euro = (v: number | null | undefined) => (v === null || v === undefined ? DASH : formatEuro(v));
const num = (v: number | null | undefined) => (v === null || v === undefined ? DASH : formatNumber(v));
const sqm = (v: number | null | undefined) => (v === null || v === undefined ? DASH : `${formatDecimal(v)} m²`);
const txt = (v: string | null | undefined) => (v === null || v === undefined || v === '' ? DASH : v);
const bool = (v: boolean | null | undefined) => (v ? 'Sì' : 'No');
const answer = (v: string | null | undefined) => labelOf(YES_NO_LABELS, v) || DASH;
const when = (v: string | null | undefined) => (v ? formatDateTime(v) : DASH);

export function provinceLabel(code: string | null | undefined): string {
  if (!code) return DASH;
  const p = provinceByCode(code);
  return p ? `${p.name} (${p.code})` : code;
}

/** The property's fields in the wizard's order, with Italian labels. */
export function propertySections(p: Property, assignee: string | null): FieldSection[] {
  return [
    {
      title: 'Contatto',
      rows: [
        { label: 'Nome', value: txt(p.firstName) },
        { label: 'Cognome', value: txt(p.lastName) },
        { label: 'Email', value: txt(p.email) },
        { label: 'Cellulare', value: txt(p.phone) },
        { label: 'Consenso privacy', value: when(p.privacyConsentAt) },
      ],
    },
    {
      title: 'Immobile',
      rows: [
        { label: 'Indirizzo', value: txt(p.address) },
        { label: 'Comune', value: txt(p.city) },
        { label: 'Provincia', value: provinceLabel(p.province) },
        { label: 'Categoria OMI', value: labelOf(OMI_CATEGORY_LABELS, p.omiCategory) || DASH },
        { label: 'Tipologia', value: labelOf(PROPERTY_TYPE_LABELS, p.propertyType) || DASH },
        { label: 'Importo desiderato', value: euro(p.desiredAmount) },
        { label: "Durata dell'opzione scelta", value: p.optionDuration ? `${p.optionDuration} mesi` : DASH },
        { label: 'Superficie', value: sqm(p.surfaceArea) },
        { label: 'Locali', value: num(p.numRooms) },
        { label: 'Bagni', value: num(p.numBathrooms) },
        { label: 'Piano', value: p.floor ? floorLabel(p.floor) : DASH },
        { label: 'Terrazzo', value: bool(p.hasTerrace) },
        ...(p.hasTerrace
          ? [
              { label: 'Numero di terrazzi', value: num(p.numTerraces) },
              { label: 'Superficie terrazzi', value: sqm(p.terraceSurfaceArea) },
            ]
          : []),
      ],
    },
    {
      title: 'Caratteristiche e condizioni',
      rows: [
        { label: 'Spese condominiali mensili', value: euro(p.condominiumFees) },
        { label: 'Spese straordinarie deliberate', value: answer(p.hasExtraordinaryExpenses) },
        ...(p.hasExtraordinaryExpenses === 'si'
          ? [
              { label: 'Dettaglio spese straordinarie', value: txt(p.extraordinaryExpensesDetails) },
              { label: 'Importo spese straordinarie', value: euro(p.extraordinaryExpensesAmount) },
            ]
          : []),
        { label: 'Caratteristiche', value: p.features?.length ? p.features.map((f) => labelOf(FEATURE_LABELS, f)).join(', ') : DASH },
        { label: 'Stato', value: labelOf(CONDITION_LABELS, p.condition) || DASH },
        { label: 'Anno di costruzione', value: p.buildYear === null || p.buildYear === undefined ? DASH : String(p.buildYear) },
        { label: 'Box', value: p.hasBox ? `Sì (${num(p.numBox)})` : 'No' },
        { label: 'Garage', value: p.hasGarage ? `Sì (${num(p.numGarage)})` : 'No' },
        { label: 'Abusi edilizi', value: answer(p.hasAbuses) },
        ...(p.hasAbuses === 'si' ? [{ label: 'Dettaglio abusi', value: txt(p.abusesDetails) }] : []),
        { label: 'Ipoteche', value: p.hasHypothecs === 'si' ? `Sì (${num(p.numHypothecs)})` : answer(p.hasHypothecs) },
        { label: 'APE', value: p.hasApe === 'si' ? `Sì, classe ${labelOf(ENERGY_CLASS_LABELS, p.apeClass) || DASH}` : answer(p.hasApe) },
        { label: 'Infiltrazioni o muffa', value: p.hasWaterInfiltrations ? `Sì: ${txt(p.waterInfiltrationsDetails)}` : 'No' },
        { label: 'Note', value: txt(p.notes) },
      ],
    },
    {
      title: 'Richiesta',
      rows: [
        { label: 'Ricevuta il', value: when(p.createdAt) },
        { label: 'Ultima modifica', value: when(p.updatedAt) },
        { label: 'Fonte', value: p.sourceId ? (p.sourceName ?? DELETED_SOURCE_LABEL) : NO_SOURCE_LABEL },
        { label: 'Fonte (id)', value: txt(p.sourceId) },
        { label: 'Utente assegnato', value: assignee ?? DASH },
        { label: 'Codice richiesta', value: p.id },
      ],
    },
  ];
}
