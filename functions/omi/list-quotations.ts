import { route } from '../lib/http';
import { listQuotations } from './listing';
import { quotationsQuery } from './schemas';

/**
 * GET /omi/quotations?comune&provincia&tipologia&stato&semestre&zona&page -> { items, total, page,
 * pageSize: 50, pages, semesters }. Comune: partial, case/accent-insensitive; provincia:
 * exact (2 letters); tipologia: Cod_Tip or its name; stato: OTTIMO/NORMALE/SCADENTE;
 * semestre: YYYY-S1/S2 (default all); zona: a LinkZona or a Zona code (with the comune), and
 * when it names one zone the response has its history (zoneHistory, every semester). Newest
 * semester first.
 */
export const handler = route('omiListQuotations', { query: quotationsQuery }, async ({ query }) =>
  listQuotations({
    comune: query.comune,
    provincia: query.provincia,
    codTip: query.tipologia,
    stato: query.stato,
    semestre: query.semestre,
    zona: query.zona,
    page: query.page,
  }),
);
