/**
 * The valuation use case: reads the comune's OMI data and runs the pure engine
 * (functions/domain/valuation.ts). Three reads in parallel (the candidates, the zone
 * descriptions, the semester list), then one BatchGetItem for the chosen zone's history.
 */
import { codTipForCategory } from '../domain/omi/tipologia';
import { evaluateProperty, selectQuotation, type ValuationRequest, type ValuationResult } from '../domain/valuation';
import { listSemesters, loadValuationData, loadZoneHistory } from '../omi/omi-store';

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
