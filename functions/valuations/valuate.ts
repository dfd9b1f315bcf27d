/**
 * The valuation use case: reads the comune's OMI data and runs the pure engine
 * (functions/domain/valuation.ts). Three Queries: candidates and zone descriptions in
 * parallel, then the chosen zone's history.
 */
import { codTipForCategory } from '../domain/omi/tipologia';
import { evaluateProperty, selectQuotation, type ValuationRequest, type ValuationResult } from '../domain/valuation';
import { loadValuationData, loadZoneHistory } from '../lib/omi-store';

export async function valuate(req: ValuationRequest): Promise<ValuationResult> {
  const codTip = codTipForCategory(req.omiCategory);
  if (codTip === null) return evaluateProperty(req, { rows: [] });
  const { rows, zones } = await loadValuationData(req.province, req.city, codTip);
  const selection = selectQuotation(req, rows, zones);
  if (!selection.ok) return selection.result;
  const history = await loadZoneHistory(selection.row.linkZona, codTip);
  return evaluateProperty(req, { rows, zones, history });
}
