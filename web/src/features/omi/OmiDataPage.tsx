import { useMemo, useState } from 'react';
import { Link } from 'react-router-dom';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Upload } from 'lucide-react';
import { Card } from '@/components/ui';
import { usePageTitle } from '@/lib/use-page-title';
import { listQuotations, omiKeys } from './api';
import { OmiFiltersForm } from './OmiFiltersForm';
import { OmiPagination } from './OmiPagination';
import { OmiResults, OmiResultsSummary } from './OmiResults';
import { OmiZoneHistory } from './OmiZoneHistory';
import { useOmiFilters } from './use-omi-filters';

export default function OmiDataPage() {
  usePageTitle('Dati OMI');
  const { values, setValue, filters, anyFilter, reset } = useOmiFilters();

  // any filter change goes back to page 1: the page belongs to the filters it was chosen with
  const filterKey = JSON.stringify(filters);
  const [paging, setPaging] = useState({ key: filterKey, page: 1 });
  const page = paging.key === filterKey ? paging.page : 1;
  const goTo = (p: number) => setPaging({ key: filterKey, page: Math.max(1, p) });

  const query = useQuery({
    queryKey: omiKeys.quotations(filters, page),
    queryFn: ({ signal }) => listQuotations(filters, page, signal),
    placeholderData: keepPreviousData,
    staleTime: 10_000,
  });
  const data = query.data;

  // semesters offered by the server (every semester stored), kept while a page loads
  const semestre = values.semestre;
  const semesters = useMemo(() => {
    const list = [...(data?.semesters ?? [])];
    if (semestre && !list.includes(semestre)) list.unshift(semestre);
    return list;
  }, [data?.semesters, semestre]);

  const updating = query.isFetching && !!data;

  return (
    <div className="mx-auto w-full max-w-6xl px-4 py-8 sm:px-6 sm:py-10">
      <OmiDataHeader />
      <OmiFiltersForm values={values} semesters={semesters} anyFilter={anyFilter} onChange={setValue} onReset={reset} />
      {filters.zona && <OmiZoneHistory data={data} onPick={(linkZona) => setValue('zona', linkZona)} />}
      <Card className="mt-6 overflow-hidden">
        <OmiResultsSummary data={data} updating={updating} />
        <OmiResults query={query} page={page} updating={updating} anyFilter={anyFilter} onGoTo={goTo} />
        {data && <OmiPagination data={data} page={page} onGoTo={goTo} />}
      </Card>
    </div>
  );
}

function OmiDataHeader() {
  return (
    <div className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
      <div>
        <h1 className="text-2xl font-bold sm:text-3xl">Dati OMI</h1>
        <p className="mt-2 max-w-2xl text-slate-700">
          Quotazioni immobiliari dell&apos;Osservatorio del Mercato Immobiliare (Agenzia Entrate - OMI), dal semestre più
          recente.
        </p>
      </div>
      <Link
        to="/omi-import"
        className="inline-flex items-center gap-1.5 self-start rounded font-semibold text-brand-navy hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-navy sm:self-auto"
      >
        <Upload aria-hidden="true" className="size-4" />
        Importa dati OMI
      </Link>
    </div>
  );
}
