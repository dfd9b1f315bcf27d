import { ChevronLeft, ChevronRight } from 'lucide-react';
import { Button } from '@/components/ui';
import type { QuotationPage } from './api';
import { formatNumber } from './format';

/** "Mostrando x - y di z" and the previous / next buttons of the Dati OMI results. */
export function OmiPagination({ data, page, onGoTo }: { data: QuotationPage; page: number; onGoTo: (page: number) => void }) {
  const { pages, total } = data;
  const from = data.items.length ? (data.page - 1) * data.pageSize + 1 : 0;
  const to = from + data.items.length - Math.min(1, data.items.length);
  return (
    <nav
      aria-label="Paginazione"
      className="flex flex-col gap-3 border-t border-slate-200 px-4 py-3 sm:flex-row sm:items-center sm:justify-between sm:px-6"
    >
      <p className="text-sm text-slate-700" data-testid="omi-showing">
        {total > 0 && from > 0 ? `Mostrando ${formatNumber(from)} - ${formatNumber(to)} di ${formatNumber(total)}` : 'Mostrando 0 - 0 di 0'}
      </p>
      <div className="flex gap-2">
        <Button variant="outline" size="sm" onClick={() => onGoTo(page - 1)} disabled={page <= 1} className="flex-1 sm:flex-none" data-testid="omi-prev">
          <ChevronLeft aria-hidden="true" className="size-4" />
          Precedente
        </Button>
        <Button variant="outline" size="sm" onClick={() => onGoTo(page + 1)} disabled={page >= pages} className="flex-1 sm:flex-none" data-testid="omi-next">
          Successiva
          <ChevronRight aria-hidden="true" className="size-4" />
        </Button>
      </div>
    </nav>
  );
}
