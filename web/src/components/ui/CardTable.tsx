import type { ReactNode } from 'react';
import { cn } from '@/lib/cn';

/**
 * Below the sm breakpoint a cell shows its column name (the cell's `data-label`) before its
 * value, so each row reads as a card.
 */
export const CARD_LABEL = "max-sm:before:mr-1 max-sm:before:font-sans max-sm:before:font-semibold max-sm:before:text-slate-600 max-sm:before:content-[attr(data-label)':']";

/**
 * The back office's table: a focusable scrolling region (keyboard users can scroll it) around
 * a table whose rows become cards below sm. Children: thead (hide it with max-sm:sr-only) and tbody.
 */
export function CardTable({
  label,
  caption,
  minWidth,
  testId,
  className,
  children,
}: {
  /** the region's accessible name, e.g. 'Tabella delle fonti' */
  label: string;
  caption: string;
  /** Tailwind min-width class of the table from sm up, e.g. 'sm:min-w-[720px]' */
  minWidth?: string;
  testId?: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <div
      role="region"
      aria-label={label}
      tabIndex={0}
      className={cn(
        'relative overflow-x-auto focus-visible:ring-2 focus-visible:ring-brand-navy focus-visible:outline-none focus-visible:ring-inset',
        className,
      )}
    >
      <table className={cn('w-full border-collapse text-sm max-sm:block', minWidth)} data-testid={testId}>
        <caption className="sr-only">{caption}</caption>
        {children}
      </table>
    </div>
  );
}
