/**
 * The valuation use case: reads the comune's OMI data and runs the pure engine
 * (functions/domain/valuation.ts). Three reads in parallel (the candidates, the zone
 * descriptions, the semester list), then one BatchGetItem for the chosen zone's history.
 * Shared by the admin's POST /valuations/evaluate, the valuation on submission
 * (model/valuation.ts) and the admin's valuation of a property (review).
 */
import { comuneSearchKey } from '../../domain/omi/names';
import { codTipForCategory } from '../../domain/omi/tipologia';
import type { OmiQuotation, OmiZoneInfo } from '../../domain/omi/types';
import { evaluateProperty, selectQuotation, type ValuationRequest, type ValuationResult } from '../../domain/valuation';
import { loadZoneHistory, quotationsOfComune } from './quotations';
import { listSemesters } from './semesters';
import { zonesOfComune } from './zones';

/**
 * The valuation's data: the comune's quotations of one type for the newest semester that
 * has usable values (plus any newer semester with only 0s, so the engine can say so), and
 * the comune's zone descriptions. Two Queries, in parallel.
 */
export async function loadValuationData(prov: string, comune: string, codTip: number): Promise<{ rows: OmiQuotation[]; zones: OmiZoneInfo[] }> {
  const comuneKey = comuneSearchKey(comune);
  const [rows, zones] = await Promise.all([quotationsOfComune(prov, comuneKey, codTip), zonesOfComune(prov, comuneKey)]);
  return { rows, zones };
}

export async function valuate(req: ValuationRequest): Promise<ValuationResult> {
  const codTip = codTipForCategory(req.omiCategory);
  if (codTip === null) return evaluateProperty(req, { rows: [] });
  const [{ rows, zones }, manifests] = await Promise.all([loadValuationData(req.province, req.city, codTip), listSemesters()]);
  const selection = selectQuotation(req, rows, zones);
  if (!selection.ok) return selection.result;
  const semesters = manifests.filter((m) => m.provinces.includes(selection.row.prov)).map((m) => m.semester);
  const history = await loadZoneHistory(selection.row.prov, selection.row.linkZona, codTip, semesters);
  return evaluateProperty(req, { rows, zones, history }, selection);
}
