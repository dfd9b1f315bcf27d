/**
 * OMI property types (Cod_Tip / Descr_Tipologia, as published by the Agenzia delle Entrate)
 * and the submission wizard's OMI categories (spec 000 section 3).
 */
export const COD_TIP: Readonly<Record<number, string>> = {
  1: 'Ville e Villini',
  5: 'Negozi',
  6: 'Uffici',
  7: 'Capannoni tipici',
  8: 'Capannoni industriali',
  9: 'Magazzini',
  10: 'Laboratori',
  13: 'Box',
  14: 'Posti auto coperti',
  15: 'Posti auto scoperti',
  16: 'Autorimesse',
  17: 'Centri commerciali',
  18: 'Uffici strutturati',
  19: 'Abitazioni signorili',
  20: 'Abitazioni civili',
  21: 'Abitazioni di tipo economico',
  22: 'Abitazioni tipiche dei luoghi',
  23: 'Pensioni e assimilati',
};

export function descrTipologia(codTip: number): string {
  return COD_TIP[codTip] ?? `Tipologia ${codTip}`;
}

export const OMI_CATEGORIES = [
  'abitazioni_signorili',
  'abitazioni_civili',
  'abitazioni_economiche',
  'ville_villini',
  'negozi',
  'uffici',
  'magazzini',
  'box_posti_auto',
  'laboratori',
  'capannoni_industriali',
  'capannoni_tipici',
  'terreni_agricoli',
  'terreni_edificabili',
] as const;
export type OmiCategory = (typeof OMI_CATEGORIES)[number];

export const DEFAULT_OMI_CATEGORY: OmiCategory = 'abitazioni_civili';

/** Wizard category -> Cod_Tip. Land (terreni_*) has no OMI quotation: null. */
export const CATEGORY_COD_TIP: Readonly<Record<OmiCategory, number | null>> = {
  abitazioni_civili: 20,
  abitazioni_signorili: 19,
  abitazioni_economiche: 21,
  ville_villini: 1,
  negozi: 5,
  uffici: 6,
  magazzini: 9,
  box_posti_auto: 13,
  laboratori: 10,
  capannoni_industriali: 8,
  capannoni_tipici: 7,
  terreni_agricoli: null,
  terreni_edificabili: null,
};

export const CATEGORY_LABEL: Readonly<Record<OmiCategory, string>> = {
  abitazioni_civili: 'Abitazioni civili',
  abitazioni_signorili: 'Abitazioni signorili',
  abitazioni_economiche: 'Abitazioni economiche',
  ville_villini: 'Ville e villini',
  negozi: 'Negozi',
  uffici: 'Uffici',
  magazzini: 'Magazzini',
  box_posti_auto: 'Box e posti auto',
  laboratori: 'Laboratori',
  capannoni_industriali: 'Capannoni industriali',
  capannoni_tipici: 'Capannoni tipici',
  terreni_agricoli: 'Terreni agricoli',
  terreni_edificabili: 'Terreni edificabili',
};

export function codTipForCategory(category: OmiCategory): number | null {
  return CATEGORY_COD_TIP[category];
}

/**
 * The OMI data page's Tipologia select (spec 001, OMI data): label -> Cod_Tip.
 * 'Tutte' is no filter.
 */
export const TIPOLOGIA_FILTER_OPTIONS: readonly { label: string; codTip: number }[] = [
  { label: 'Abitazioni civili', codTip: 20 },
  { label: 'Abitazioni signorili', codTip: 19 },
  { label: 'Abitazioni economiche', codTip: 21 },
  { label: 'Ville e Villini', codTip: 1 },
  { label: 'Negozi', codTip: 5 },
  { label: 'Uffici', codTip: 6 },
  { label: 'Magazzini', codTip: 9 },
];

/**
 * A Tipologia filter value: a Cod_Tip ("20"), a published description ("Abitazioni civili",
 * "Abitazioni di tipo economico") or a select label ("Abitazioni economiche"), any case.
 */
export function parseTipologia(value: string): number | undefined {
  const text = value.trim();
  if (/^\d{1,2}$/.test(text)) {
    const n = Number(text);
    return COD_TIP[n] ? n : undefined;
  }
  const lower = text.toLowerCase();
  const option = TIPOLOGIA_FILTER_OPTIONS.find((o) => o.label.toLowerCase() === lower);
  if (option) return option.codTip;
  for (const [code, descr] of Object.entries(COD_TIP)) if (descr.toLowerCase() === lower) return Number(code);
  return undefined;
}

/** OMI conservation states. A few rows have none (empty Stato). */
export const STATI = ['OTTIMO', 'NORMALE', 'SCADENTE'] as const;
export type Stato = (typeof STATI)[number];

export function isStato(value: string): value is Stato {
  return (STATI as readonly string[]).includes(value);
}

/** The wizard's conditions (spec 000 section 3). */
export const CONDITIONS = ['nuovo', 'ottimo', 'buono', 'da_ristrutturare'] as const;
export type Condition = (typeof CONDITIONS)[number];

/**
 * Condition -> OMI Stato (docs/architecture.md, decisioni): nuovo/ottimo -> OTTIMO, buono -> NORMALE,
 * da_ristrutturare -> SCADENTE; anything else (or none) -> undefined = the zone's prevalent
 * (`P`) row.
 */
export function statoForCondition(condition: string | null | undefined): Stato | undefined {
  switch ((condition ?? '').trim().toLowerCase()) {
    case 'nuovo':
    case 'ottimo':
      return 'OTTIMO';
    case 'buono':
      return 'NORMALE';
    case 'da_ristrutturare':
      return 'SCADENTE';
    default:
      return undefined;
  }
}

/** OMI fasce (zone bands). */
export const FASCE: Readonly<Record<string, string>> = {
  B: 'Centrale',
  C: 'Semicentrale',
  D: 'Periferica',
  E: 'Suburbana',
  R: 'Extraurbana',
};
