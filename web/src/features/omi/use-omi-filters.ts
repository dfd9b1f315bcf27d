import { useMemo, useState } from 'react';
import type { QuotationFilters } from './api';
import { useDebouncedValue } from './use-debounced-value';

/** The filters as typed (comune, provincia and zona reach the query once the typing pauses). */
export type OmiFilterValues = QuotationFilters;

const NO_FILTERS: OmiFilterValues = { comune: '', provincia: '', tipologia: '', stato: '', semestre: '', zona: '' };

/** The filters of the Dati OMI page: as typed, as queried (debounced), and their reset. */
export function useOmiFilters() {
  const [values, setValues] = useState<OmiFilterValues>(NO_FILTERS);
  const setValue = (name: keyof OmiFilterValues, value: string) => setValues((v) => ({ ...v, [name]: value }));
  const debouncedComune = useDebouncedValue(values.comune.trim());
  const debouncedProvincia = useDebouncedValue(values.provincia);
  const debouncedZona = useDebouncedValue(values.zona.trim().toUpperCase());
  const { tipologia, stato, semestre } = values;

  const filters: QuotationFilters = useMemo(
    () => ({ comune: debouncedComune, provincia: debouncedProvincia, tipologia, stato, semestre, zona: debouncedZona }),
    [debouncedComune, debouncedProvincia, tipologia, stato, semestre, debouncedZona],
  );
  const anyFilter = !!(values.comune || values.provincia || tipologia || stato || semestre || values.zona);
  const reset = () => setValues(NO_FILTERS);
  return { values, setValue, filters, anyFilter, reset };
}
