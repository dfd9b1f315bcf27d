import { useId, useState } from 'react';
import { DayPicker, type DateRange, type Modifiers } from 'react-day-picker';
import { it } from 'react-day-picker/locale/it';
import { format } from 'date-fns';
import { CalendarDays, X } from 'lucide-react';
import 'react-day-picker/style.css';
import './requests-calendar.css';
import { Button, Dialog } from '@/components/ui';
import { controlClass } from '@/components/ui/Input';
import { cn } from '@/lib/cn';

/** yyyy-MM-dd -> the local day */
const dayOf = (iso: string) => {
  const [y, m, d] = iso.split('-').map(Number) as [number, number, number];
  return new Date(y, m - 1, d);
};
const isoOf = (date: Date) => format(date, 'yyyy-MM-dd');
const shown = (iso: string) => format(dayOf(iso), 'dd/MM/yyyy');

/** The period as the button says it. */
export function periodLabel(from?: string, to?: string): string {
  if (from && to) return from === to ? `Il ${shown(from)}` : `Dal ${shown(from)} al ${shown(to)}`;
  if (from) return `Dal ${shown(from)}`;
  if (to) return `Fino al ${shown(to)}`;
  return 'Tutte le date';
}

/** First click: the first day; second: the last (either order); third: a new period. */
function nextRange(prev: DateRange | undefined, day: Date): DateRange {
  if (!prev?.from || (prev.to && isoOf(prev.from) !== isoOf(prev.to))) return { from: day, to: day };
  return day < prev.from ? { from: day, to: prev.from } : { from: prev.from, to: day };
}

function dayLabel(date: Date, m: Modifiers): string {
  const parts = [format(date, 'EEEE d MMMM yyyy', { locale: it })];
  if (m.today) parts.unshift('Oggi');
  if (m.range_start) parts.push('primo giorno');
  if (m.range_end) parts.push('ultimo giorno');
  else if (m.selected) parts.push('selezionato');
  return parts.join(', ');
}

/**
 * The Dashboard Admin's period filter (days of submission in Italy, both included): a button
 * saying the period, a calendar in a dialog to choose it (react-day-picker, Italian), a button
 * to remove it.
 */
export function DateRangeFilter({
  from,
  to,
  onChange,
  className,
}: {
  from?: string;
  to?: string;
  onChange: (period: { from?: string; to?: string }) => void;
  className?: string;
}) {
  const labelId = useId();
  const valueId = useId();
  const [open, setOpen] = useState(false);
  const [range, setRange] = useState<DateRange | undefined>();
  const today = new Date();

  const start = () => {
    setRange(from || to ? { from: dayOf(from ?? to!), to: dayOf(to ?? from!) } : undefined);
    setOpen(true);
  };
  const apply = () => {
    if (!range?.from) return;
    onChange({ from: isoOf(range.from), to: isoOf(range.to ?? range.from) });
    setOpen(false);
  };
  const chosen = range?.from ? periodLabel(isoOf(range.from), isoOf(range.to ?? range.from)) : 'Nessun giorno scelto';

  return (
    <div className={cn('min-w-0 space-y-1.5', className)}>
      <span id={labelId} className="block text-sm font-medium text-slate-800">
        Periodo di invio
      </span>
      <div className="flex gap-1.5">
        <button
          type="button"
          className={cn(controlClass, 'flex h-11 min-w-0 items-center gap-2 text-left')}
          aria-labelledby={`${labelId} ${valueId}`}
          aria-haspopup="dialog"
          onClick={start}
          data-testid="requests-period"
        >
          <CalendarDays aria-hidden="true" className="size-5 shrink-0 text-slate-500" />
          <span id={valueId} className="truncate">
            {periodLabel(from, to)}
          </span>
        </button>
        {(from || to) && (
          <Button variant="ghost" className="h-11 shrink-0 px-2.5" onClick={() => onChange({})} aria-label="Rimuovi il periodo" data-testid="requests-period-clear">
            <X aria-hidden="true" className="size-5" />
          </Button>
        )}
      </div>
      <Dialog
        open={open}
        onClose={() => setOpen(false)}
        title="Periodo di invio"
        description="Scegli il primo e l'ultimo giorno: compaiono le richieste inviate in quei giorni, inclusi."
        footer={
          <>
            <Button variant="outline" onClick={() => setOpen(false)}>
              Annulla
            </Button>
            <Button onClick={apply} disabled={!range?.from} data-testid="requests-period-apply">
              Applica
            </Button>
          </>
        }
      >
        <div className="flex justify-center">
          <DayPicker
            className="requests-calendar"
            mode="range"
            locale={it}
            selected={range}
            onSelect={(_range, day) => setRange((prev) => nextRange(prev, day))}
            defaultMonth={range?.to ?? today}
            disabled={{ after: today }}
            endMonth={today}
            labels={{ labelDayButton: dayLabel }}
          />
        </div>
        <p className="mt-2 text-center text-sm text-slate-700" aria-live="polite" data-testid="requests-period-chosen">
          {chosen}
        </p>
      </Dialog>
    </div>
  );
}
