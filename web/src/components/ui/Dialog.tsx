import { useEffect, useId, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { X } from 'lucide-react';
import { cn } from '@/lib/cn';
import { Button } from './Button';

export interface DialogProps {
  open: boolean;
  onClose: () => void;
  title: ReactNode;
  description?: ReactNode;
  children?: ReactNode;
  footer?: ReactNode;
  className?: string;
}

/**
 * Modal dialog on the native <dialog> element: focus trap, Escape and inert background for free.
 * Never taller than the viewport: the title and the footer stay in view, the content between
 * them scrolls (a phone sees the dialog's buttons whole).
 */
export function Dialog({ open, onClose, title, description, children, footer, className }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const descriptionId = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);

  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      aria-describedby={description ? descriptionId : undefined}
      onClose={onClose}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
      onClick={(e) => {
        if (e.target === e.currentTarget) onClose();
      }}
      className={cn(
        'm-auto max-h-[calc(100dvh-2rem)] w-[calc(100%-2rem)] max-w-lg overflow-hidden rounded-2xl bg-white p-0 text-slate-900 shadow-xl backdrop:bg-slate-900/50',
        className,
      )}
    >
      {open && (
        <div className="flex max-h-[calc(100dvh-2rem)] flex-col">
          <div className="flex shrink-0 items-start justify-between gap-4 px-6 pt-6">
            <div className="space-y-1">
              <h2 id={titleId} className="text-lg font-bold text-brand-navy">
                {title}
              </h2>
              {description && (
                <p id={descriptionId} className="text-sm text-slate-600">
                  {description}
                </p>
              )}
            </div>
            <button
              type="button"
              onClick={onClose}
              aria-label="Chiudi"
              className="rounded-md p-1 text-slate-600 hover:bg-slate-100 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-navy"
            >
              <X aria-hidden="true" className="size-5" />
            </button>
          </div>
          <DialogBody padBottom={!footer}>{children}</DialogBody>
          {footer && (
            <div className="flex shrink-0 flex-col-reverse gap-2 border-t border-slate-200 px-6 py-4 sm:flex-row sm:justify-end" data-dialog-footer>
              {footer}
            </div>
          )}
        </div>
      )}
    </dialog>
  );
}

/**
 * The dialog's content between its title and its footer, scrolling when taller than the room
 * left: then it takes the keyboard focus too (Tab, then the arrow keys scroll it), so the
 * content a keyboard cannot otherwise reach is never out of reach.
 */
function DialogBody({ padBottom, children }: { padBottom: boolean; children?: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  const [scrolls, setScrolls] = useState(false);
  // measured in the commit that changed the content (a layout effect, before the browser paints
  // or runs anything else): content that arrives later (a loaded list) never leaves the body
  // scrolling without the focus for a frame; the observer follows resizes
  useLayoutEffect(() => {
    const body = ref.current;
    if (!body) return;
    const check = () => setScrolls(body.scrollHeight > body.clientHeight + 1);
    check();
    const observer = new ResizeObserver(check);
    observer.observe(body);
    if (body.firstElementChild) observer.observe(body.firstElementChild);
    return () => observer.disconnect();
  }, [children]);
  return (
    <div ref={ref} className={cn('min-h-0 flex-1 overflow-y-auto px-6 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-brand-navy', padBottom ? 'pb-6' : 'pb-2')} tabIndex={scrolls ? 0 : undefined} data-dialog-body>
      {children && <div className="mt-4">{children}</div>}
    </div>
  );
}

/**
 * The buttons at the end of a dialog's form: "Indietro" (closes, disabled while saving) and
 * the submit button with its label, busy while `pending`.
 */
export function DialogActions({
  onBack,
  pending,
  label,
  variant = 'primary',
  disabled,
  testId,
}: {
  onBack: () => void;
  pending: boolean;
  label: ReactNode;
  variant?: 'primary' | 'danger';
  disabled?: boolean;
  testId?: string;
}) {
  return (
    <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
      <Button variant="outline" onClick={onBack} disabled={pending}>
        Indietro
      </Button>
      <Button type="submit" variant={variant} loading={pending} disabled={disabled} data-testid={testId}>
        {label}
      </Button>
    </div>
  );
}
