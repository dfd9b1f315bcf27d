/**
 * The OMI routes' response shapes (functions/routes.ts: /omi/*), shared by the handlers and
 * the admin pages of the SPA.
 */
import type { Stato } from './tipologia';
import type { ZoneHistory } from './zone-history';

export type { ZoneHistory };

export type OmiJobKind = 'import' | 'clear';
export type OmiJobStatus = 'pending' | 'running' | 'completed' | 'failed';

/** A row of an imported file that was rejected or kept with a warning: its line and why. */
export interface RejectedRow {
  line: number;
  reason: string;
}

/** A comune of an OMI file that matches no current comune. */
export interface UnmatchedComune {
  prov: string;
  /** as published */
  comune: string;
  /** `Comune_ISTAT` and `Comune_amm` as published */
  istat: string;
  cadastral: string;
}

export type OmiImportPhase = 'rows' | 'index';

export interface OmiJob {
  id: string;
  kind: OmiJobKind;
  status: OmiJobStatus;
  fileName: string | null;
  semester: string | null;
  s3Key: string | null;
  createdBy: string | null;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  updatedAt: string;
  /** import: data rows read so far; = inserted + updated + rejected when completed */
  rowsRead: number;
  /** import: rows read whose record DynamoDB has stored (a rejected row is never written) */
  rowsWritten: number;
  /** import, while running: the rows the file is expected to hold (exact once it is read); null before the first bytes */
  rowsExpected: number | null;
  /** import, while running: 'rows' (the file read and written), then 'index' (the listing index rebuilt); null otherwise */
  phase: OmiImportPhase | null;
  /** import, phase 'index': provinces whose listing index is rebuilt, of `indexTotal` */
  indexDone: number;
  indexTotal: number | null;
  /** import: when the rebuild (phase 'index') began, on the server's clock; null before */
  indexStartedAt: string | null;
  /** import, phase 'index': the rebuild's work done, of `indexWorkTotal` (each province weighs its records in the file plus an average province's) */
  indexWorkDone: number;
  indexWorkTotal: number | null;
  inserted: number;
  updated: number;
  rejected: number;
  /** the first rejected rows (capped; `rejected` stays exact) */
  rejectedReasons: RejectedRow[];
  /**
   * rows kept (counted in inserted/updated) with a secondary field that could not be read
   * (a rent, a surface flag): stored with that value empty
   */
  warnings: number;
  /** the first rows kept with a warning (capped; `warnings` stays exact) */
  warningReasons: RejectedRow[];
  /** import: 'valori' (quotations) or 'zone' (zone descriptions) */
  fileKind: string | null;
  encoding: string | null;
  bytesRead: number;
  bytesTotal: number | null;
  /** clear: items deleted so far, of about `total` */
  deleted: number;
  total: number | null;
  /** 0..100 */
  progress: number;
  /**
   * import, when completed: the comuni of the file tied to no comune the form offers
   * (domain/omi/comune-match.ts), e.g. comuni merged since; their rows are stored and shown
   * on the data page, and no valuation finds them
   */
  unmatchedComuni: UnmatchedComune[];
  durationMs: number | null;
  error: string | null;
}

export interface QuotationListItem {
  id: string;
  semestre: string;
  comuneDescrizione: string;
  provincia: string;
  zona: string;
  fascia: string;
  fasciaDescr: string;
  linkZona: string;
  codTip: number;
  descrTipologia: string;
  stato: Stato | null;
  statoPrev: boolean;
  comprMin: number | null;
  comprMax: number | null;
  locMin: number | null;
  locMax: number | null;
  regione: string;
}

export interface QuotationPage {
  items: QuotationListItem[];
  total: number;
  page: number;
  pageSize: number;
  pages: number;
  /** every semester stored, newest first */
  semesters: string[];
  /**
   * with the zone filter: the zone's history when the filter names exactly one zone, else
   * null and the zones it matched (at most 20) to choose from
   */
  zoneHistory?: ZoneHistory | null;
  zoneMatches?: { linkZona: string; zona: string; comune: string; prov: string }[];
}
