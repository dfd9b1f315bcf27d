/**
 * Enumerations of the property submission (spec 000 section 3), with their Italian labels.
 * Stored values are the codes; labels are for the SPA, e-mails and documents.
 */
import { CATEGORY_LABEL, CONDITIONS, OMI_CATEGORIES, type Condition, type OmiCategory } from '../omi/tipologia';

type Labels<T extends string> = Readonly<Record<T, string>>;

const options = <T extends string>(values: readonly T[], labels: Labels<T>) => values.map((value) => ({ value, label: labels[value] }));

// OMI categories (the wizard's "Categoria OMI"; default abitazioni_civili, spec 001 section 3)
// and conditions: defined once with the OMI mapping in ../omi/tipologia.ts.
export { OMI_CATEGORIES, DEFAULT_OMI_CATEGORY, CONDITIONS } from '../omi/tipologia';
export const OMI_CATEGORY_LABELS: Labels<OmiCategory> = CATEGORY_LABEL;

export const PROPERTY_TYPES = ['appartamento', 'attico', 'villa', 'terreno', 'ufficio', 'negozio'] as const;
type PropertyType = (typeof PROPERTY_TYPES)[number];
export const PROPERTY_TYPE_LABELS: Labels<PropertyType> = {
  appartamento: 'Appartamento',
  attico: 'Attico',
  villa: 'Villa',
  terreno: 'Terreno',
  ufficio: 'Ufficio',
  negozio: 'Negozio',
};

export const CONDITION_LABELS: Labels<Condition> = {
  nuovo: 'Nuovo',
  ottimo: 'Ottimo',
  buono: 'Buono',
  da_ristrutturare: 'Da ristrutturare',
};

/** Yes/no answers; the abuses question also accepts 'non_lo_so'. */
export const YES_NO = ['si', 'no'] as const;
export type YesNo = (typeof YES_NO)[number];
export const YES_NO_UNKNOWN = ['si', 'no', 'non_lo_so'] as const;
type YesNoUnknown = (typeof YES_NO_UNKNOWN)[number];
export const YES_NO_LABELS: Labels<YesNoUnknown> = { si: 'Sì', no: 'No', non_lo_so: 'Non lo so' };

/**
 * Energy classes (APE) with a kWh/m² year band. The legal thresholds (DM 26/06/2015) are
 * multiples of the reference building's EPgl,nren (0,40 ... 3,50); the bands shown are
 * those thresholds applied to an indicative reference of 100 kWh/m² year.
 */
export const ENERGY_CLASSES = ['A4', 'A3', 'A2', 'A1', 'B', 'C', 'D', 'E', 'F', 'G'] as const;
type EnergyClass = (typeof ENERGY_CLASSES)[number];
const ENERGY_CLASS_BANDS: Readonly<Record<EnergyClass, { min: number | null; max: number | null; band: string }>> = {
  A4: { min: null, max: 40, band: '≤ 40 kWh/m² anno' },
  A3: { min: 40, max: 60, band: '40-60 kWh/m² anno' },
  A2: { min: 60, max: 80, band: '60-80 kWh/m² anno' },
  A1: { min: 80, max: 100, band: '80-100 kWh/m² anno' },
  B: { min: 100, max: 120, band: '100-120 kWh/m² anno' },
  C: { min: 120, max: 150, band: '120-150 kWh/m² anno' },
  D: { min: 150, max: 200, band: '150-200 kWh/m² anno' },
  E: { min: 200, max: 260, band: '200-260 kWh/m² anno' },
  F: { min: 260, max: 350, band: '260-350 kWh/m² anno' },
  G: { min: 350, max: null, band: '> 350 kWh/m² anno' },
};
export const ENERGY_CLASS_LABELS: Labels<EnergyClass> = Object.fromEntries(
  ENERGY_CLASSES.map((c) => [c, `${c} (${ENERGY_CLASS_BANDS[c].band})`]),
) as Labels<EnergyClass>;

/** The 11 room types of step 4, in the order the wizard offers them. */
export const ROOM_TYPES = [
  'soggiorno',
  'cucina',
  'camera_da_letto',
  'bagno',
  'balcone_terrazzo',
  'cantina',
  'garage',
  'esterno_fabbricato',
  'mappe',
  'planimetrie',
  'altro',
] as const;
export type RoomType = (typeof ROOM_TYPES)[number];
export const ROOM_TYPE_LABELS: Labels<RoomType> = {
  soggiorno: 'Soggiorno',
  cucina: 'Cucina',
  camera_da_letto: 'Camera da letto',
  bagno: 'Bagno',
  balcone_terrazzo: 'Balcone/Terrazzo',
  cantina: 'Cantina',
  garage: 'Garage',
  esterno_fabbricato: 'Esterno fabbricato',
  mappe: 'Mappe',
  planimetrie: 'Planimetrie',
  altro: 'Altro',
};

/** The 21 accessory features. A code contains 'ascensore' only for the lift (valuation check). */
export const FEATURES = [
  'aria_condizionata_canalizzata',
  'solare_fotovoltaico',
  'riscaldamento_autonomo',
  'riscaldamento_centralizzato',
  'ascensore',
  'balcone',
  'terrazzo',
  'giardino_privato',
  'posto_auto',
  'cantina',
  'soffitta',
  'doppi_vetri',
  'porta_blindata',
  'allarme',
  'videocitofono',
  'camino',
  'piscina',
  'fibra',
  'arredato',
  'cucina_abitabile',
  'angolo_cottura',
] as const;
type Feature = (typeof FEATURES)[number];
export const FEATURE_LABELS: Labels<Feature> = {
  aria_condizionata_canalizzata: 'Aria condizionata canalizzata',
  solare_fotovoltaico: 'Pannelli solari / fotovoltaico',
  riscaldamento_autonomo: 'Riscaldamento autonomo',
  riscaldamento_centralizzato: 'Riscaldamento centralizzato',
  ascensore: 'Ascensore',
  balcone: 'Balcone',
  terrazzo: 'Terrazzo',
  giardino_privato: 'Giardino privato',
  posto_auto: 'Posto auto',
  cantina: 'Cantina',
  soffitta: 'Soffitta',
  doppi_vetri: 'Doppi vetri',
  porta_blindata: 'Porta blindata',
  allarme: 'Impianto di allarme',
  videocitofono: 'Videocitofono',
  camino: 'Camino',
  piscina: 'Piscina',
  fibra: 'Fibra ottica',
  arredato: 'Arredato',
  cucina_abitabile: 'Cucina abitabile',
  angolo_cottura: 'Angolo cottura',
};

/** Floors, lowest first. 'terra' is the ground floor (the valuation's ground-floor correction). */
export const FLOORS = [
  'seminterrato',
  'terra',
  'rialzato',
  ...(Array.from({ length: 20 }, (_, i) => String(i + 1)) as NumberedFloor[]),
  'oltre_20',
  'piu_livelli',
] as const;
type NumberedFloor = '1' | '2' | '3' | '4' | '5' | '6' | '7' | '8' | '9' | '10' | '11' | '12' | '13' | '14' | '15' | '16' | '17' | '18' | '19' | '20';
type Floor = 'seminterrato' | 'terra' | 'rialzato' | NumberedFloor | 'oltre_20' | 'piu_livelli';

export function floorLabel(floor: string): string {
  switch (floor) {
    case 'seminterrato':
      return 'Seminterrato';
    case 'terra':
      return 'Piano terra';
    case 'rialzato':
      return 'Piano rialzato';
    case 'oltre_20':
      return 'Oltre il 20° piano';
    case 'piu_livelli':
      return 'Su più livelli';
    default:
      return /^\d+$/.test(floor) ? `${floor}° piano` : floor;
  }
}

export const OMI_CATEGORY_OPTIONS = options(OMI_CATEGORIES, OMI_CATEGORY_LABELS);
export const PROPERTY_TYPE_OPTIONS = options(PROPERTY_TYPES, PROPERTY_TYPE_LABELS);
export const CONDITION_OPTIONS = options(CONDITIONS, CONDITION_LABELS);
export const ENERGY_CLASS_OPTIONS = options(ENERGY_CLASSES, ENERGY_CLASS_LABELS);
export const ROOM_TYPE_OPTIONS = options(ROOM_TYPES, ROOM_TYPE_LABELS);
export const FEATURE_OPTIONS = options(FEATURES, FEATURE_LABELS);
export const FLOOR_OPTIONS = (FLOORS as readonly Floor[]).map((value) => ({ value, label: floorLabel(value) }));

/** Label of a stored code, or the code itself when unknown (old data). */
export function labelOf(labels: Readonly<Record<string, string>>, code: string | null | undefined): string {
  if (code === null || code === undefined || code === '') return '';
  return labels[code] ?? code;
}
