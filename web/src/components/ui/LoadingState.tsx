import { cn } from '@/lib/cn';
import { Spinner } from './Spinner';

/** Accessible loading placeholder: announced as a status, never a flash of protected content. */
export function LoadingState({ label = 'Caricamento...', className }: { label?: string; className?: string }) {
  return (
    <div
      role="status"
      aria-live="polite"
      className={cn('flex min-h-[40vh] items-center justify-center gap-3 text-slate-600', className)}
    >
      <Spinner className="size-6 text-brand-orange-dark" />
      <span>{label}</span>
    </div>
  );
}
