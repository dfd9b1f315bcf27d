/**
 * The valuation use case: reads the comune's OMI data and runs the pure engine
 * (functions/domain/valuation.ts). The comune is found by identity (its ISTAT code, then its
 * province and name: domain/omi/comune-match.ts). Reads only what the valuation shows: the
 * newest semester's key, then its candidates and zone descriptions in parallel, then the
 * names of the semesters holding the zone's province and one BatchGetItem for the zone's
 * history and descriptions (the price trend).
 * Shared by the admin's POST /valuations/evaluate, the valuation on submission
 * (model/valuation.ts) and the admin's valuation of a property (review).
 */
import { comuneIdsOf } from '../../domain/omi/comune-match';
import { codTipForCategory } from '../../domain/omi/tipologia';
import type { OmiQuotation, OmiZoneInfo } from '../../domain/omi/types';
import { evaluateProperty, selectQuotation, type ValuationRequest, type ValuationResult } from '../../domain/valuation';
import { hasUsable, newestSemesterOf, quotationsBefore, quotationsOfSemester } from './quotations';
import { semestersOfProvince } from './semesters';
import { loadZoneHistory } from './zone-history';
import { zonesOfComune } from './zones';

/**
 * The valuation's data, under the first of the comune's ids that has any: the quotations of
 * one type of the newest semester and that semester's zone descriptions (in parallel, once
 * the newest semester is known from one key read). When that semester has no usable value
 * of the type, the older semesters down to the newest usable one, and its zone descriptions.
 */
export async function loadValuationData(prov: string, comune: string, codTip: number): Promise<{ rows: OmiQuotation[]; zones: OmiZoneInfo[] }> {
  for (const id of comuneIdsOf(prov, comune)) {
    const newest = await newestSemesterOf(id);
    if (!newest) continue;
    const [rows, zones] = await Promise.all([quotationsOfSemester(id, newest, codTip), zonesOfComune(id, newest)]);
    if (hasUsable(rows)) return { rows, zones };
    const older = await quotationsBefore(id, codTip, newest);
    if (!older.length) return { rows, zones };
    return { rows: [...rows, ...older], zones: await zonesOfComune(id, oldestSemester(older)) };
  }
  return { rows: [], zones: [] };
}

/** The semester the engine values from: older rows stop at the newest usable one. */
const oldestSemester = (rows: readonly OmiQuotation[]) => rows.reduce((a, r) => (r.semester < a ? r.semester : a), rows[0]!.semester);

export async function valuate(req: ValuationRequest): Promise<ValuationResult> {
  const codTip = codTipForCategory(req.omiCategory);
  if (codTip === null) return evaluateProperty(req, { rows: [] });
  // the zone's province is the form's but for a file that wrote the comune under an old one (Monza under MI)
  const sameProvince = semestersOfProvince(req.province.toUpperCase());
  sameProvince.catch(() => undefined); // awaited below when needed
  const { rows, zones } = await loadValuationData(req.province, req.city, codTip);
  const selection = selectQuotation(req, rows, zones);
  if (!selection.ok) return selection.result;
  const semesters = selection.row.prov === req.province.toUpperCase() ? await sameProvince : await semestersOfProvince(selection.row.prov);
  // the zone's rows and descriptions in those semesters: the history and the trend's redraw check
  const { records, descriptions } = await loadZoneHistory(selection.row.prov, selection.row.linkZona, semesters);
  const history = records.filter((q) => q.codTip === codTip);
  return evaluateProperty(req, { rows, zones, history, historyZones: descriptions }, selection);
}
