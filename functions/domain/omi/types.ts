import type { Stato } from './tipologia';

/**
 * One data row of an OMI "VALORI" file (Quotazioni Immobiliari, Valori di Mercato).
 * Missing values (`0` in the file) are null. Rents are euro/m² per month.
 */
export interface OmiValoriRow {
  areaTerritoriale: string;
  regione: string;
  prov: string;
  comuneIstat: string;
  comuneCat: string;
  sez: string;
  comuneAmm: string;
  /** as published, e.g. `SANT`ANATOLIA DI NARCO` */
  comuneDescrizione: string;
  fascia: string;
  zona: string;
  linkZona: string;
  codTip: number;
  descrTipologia: string;
  /** null when the file leaves it empty */
  stato: Stato | null;
  /** true on the prevalent state's row (`P`) */
  statoPrev: boolean;
  comprMin: number | null;
  comprMax: number | null;
  /** `L` lorda (gross) or `N` netta */
  supNlCompr: string;
  locMin: number | null;
  locMax: number | null;
  supNlLoc: string;
}

/** One data row of an OMI "ZONE" file (Informazioni di Zona). */
export interface OmiZoneRow {
  areaTerritoriale: string;
  regione: string;
  prov: string;
  comuneIstat: string;
  /** cadastral code (`Comune_amm`), e.g. `F205` */
  comuneAmm: string;
  comuneDescrizione: string;
  fascia: string;
  /** without the surrounding single quotes */
  zonaDescr: string;
  zona: string;
  linkZona: string;
  codTipPrev: number | null;
  descrTipPrev: string;
  statoPrev: string;
  microzona: string;
}

/** A stored quotation as the valuation and the data page read it. */
export interface OmiQuotation {
  semester: string;
  prov: string;
  comuneDescrizione: string;
  fascia: string;
  zona: string;
  linkZona: string;
  codTip: number;
  descrTipologia: string;
  stato: Stato | null;
  statoPrev: boolean;
  comprMin: number | null;
  comprMax: number | null;
  locMin?: number | null;
  locMax?: number | null;
}

/** A zone's published description (from a ZONE file). */
export interface OmiZoneInfo {
  /** the province the file wrote it under, when read from the table */
  prov?: string;
  linkZona: string;
  zona: string;
  fascia: string;
  zonaDescr: string;
  semester: string;
}
