/**
 * The valuation use case: reads the comune's OMI data and runs the pure engine
 * (functions/domain/valuation.ts). The comune is found by identity (its ISTAT code, then its
 * province and name: domain/omi/comune-match.ts). Reads only what the valuation shows: the
 * candidates of the newest usable semester, the zone descriptions of that semester (with
 * the semester list, in parallel), then one BatchGetItem for the chosen zone's history.
 * Shared by the admin's POST /valuations/evaluate, the valuation on submission
 * (model/valuation.ts) and the admin's valuation of a property (review).
 */
import { comuneIdsOf } from '../../domain/omi/comune-match';
import { codTipForCategory } from '../../domain/omi/tipologia';
import type { OmiQuotation, OmiZoneInfo } from '../../domain/omi/types';
import { evaluateProperty, selectQuotation, type ValuationRequest, type ValuationResult } from '../../domain/valuation';
import { loadZoneHistory, quotationsOfComune } from './quotations';
import { listSemesters, type SemesterManifest } from './semesters';
import { zonesOfComune } from './zones';

/**
 * The valuation's data: the comune's quotations of one type for the newest semester that
 * has usable values (plus any newer semester with only 0s, so the engine can say so), under
 * the first of the comune's ids that has any, and the zone descriptions of that semester.
 */
export async function loadValuationData(prov: string, comune: string, codTip: number): Promise<{ rows: OmiQuotation[]; zones: OmiZoneInfo[] }> {
  for (const id of comuneIdsOf(prov, comune)) {
    const rows = await quotationsOfComune(id, codTip);
    if (!rows.length) continue;
    return { rows, zones: await zonesOfComune(id, oldestSemester(rows)) };
  }
  return { rows: [], zones: [] };
}

/** The semester the engine values from: the rows stop at the newest usable one (newer ones hold only 0s). */
const oldestSemester = (rows: readonly OmiQuotation[]) => rows.reduce((a, r) => (r.semester < a ? r.semester : a), rows[0]!.semester);

export async function valuate(req: ValuationRequest): Promise<ValuationResult> {
  const codTip = codTipForCategory(req.omiCategory);
  if (codTip === null) return evaluateProperty(req, { rows: [] });
  const manifests: Promise<SemesterManifest[]> = listSemesters();
  manifests.catch(() => undefined); // awaited below, or not needed
  const { rows, zones } = await loadValuationData(req.province, req.city, codTip);
  const selection = selectQuotation(req, rows, zones);
  if (!selection.ok) return selection.result;
  const semesters = (await manifests).filter((m) => m.provinces.includes(selection.row.prov)).map((m) => m.semester);
  const history = await loadZoneHistory(selection.row.prov, selection.row.linkZona, codTip, semesters);
  return evaluateProperty(req, { rows, zones, history }, selection);
}
