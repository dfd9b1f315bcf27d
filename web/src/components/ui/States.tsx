import type { LucideIcon } from 'lucide-react';
import { RotateCcw } from 'lucide-react';
import type { ReactNode } from 'react';
import { errorMessage } from '@/lib/api';
import { cn } from '@/lib/cn';
import { Button } from './Button';

/** A load that failed: the spec's title, the server's Italian message, and 'Riprova'. */
export function ErrorState({
  title,
  error,
  onRetry,
  className,
  testId,
}: {
  title: string;
  error: unknown;
  onRetry: () => void;
  /** padding and extras; default p-8 */
  className?: string;
  testId?: string;
}) {
  return (
    <div role="alert" className={cn('flex flex-col items-center gap-3 text-center', className ?? 'p-8')} data-testid={testId}>
      <p className="font-semibold text-red-700">{title}</p>
      <p className="text-slate-700">{errorMessage(error)}</p>
      <Button variant="outline" onClick={onRetry}>
        <RotateCcw aria-hidden="true" className="size-4" />
        Riprova
      </Button>
    </div>
  );
}

/** Nothing to show yet: an icon, what is missing, and what to do about it. */
export function EmptyState({
  icon: Icon,
  title,
  children,
  className,
  testId,
}: {
  icon: LucideIcon;
  title: string;
  children?: ReactNode;
  className?: string;
  testId?: string;
}) {
  return (
    <div className={cn('flex flex-col items-center gap-2 text-center', className ?? 'p-8')} data-testid={testId}>
      <Icon aria-hidden="true" className="size-8 text-slate-400" />
      <p className="font-semibold text-slate-800">{title}</p>
      {children}
    </div>
  );
}
