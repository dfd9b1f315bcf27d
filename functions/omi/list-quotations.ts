import { route } from '../lib/http';
import { listQuotations } from './listing';
import { quotationsQuery } from './schemas';

/**
 * GET /omi/quotations?comune&provincia&tipologia&stato&semestre&page -> { items, total, page,
 * pageSize: 50, pages, semesters }. Comune: partial, case/accent-insensitive; provincia:
 * exact (2 letters); tipologia: Cod_Tip or its name; stato: OTTIMO/NORMALE/SCADENTE;
 * semestre: YYYY-S1/S2 (default all). Newest semester first.
 */
export const handler = route('omiListQuotations', { query: quotationsQuery }, async ({ query }) =>
  listQuotations({
    comune: query.comune,
    provincia: query.provincia,
    codTip: query.tipologia,
    stato: query.stato,
    semestre: query.semestre,
    page: query.page,
  }),
);
