import { useState, type ChangeEvent, type DragEvent, type Ref } from 'react';
import { FileSpreadsheet } from 'lucide-react';
import { cn } from '@/lib/cn';

interface FileDropProps {
  ref: Ref<HTMLInputElement>;
  id?: string;
  'aria-describedby'?: string;
  'aria-invalid'?: boolean | 'true' | 'false';
  file: File | null;
  disabled: boolean;
  onChange: (e: ChangeEvent<HTMLInputElement>) => void;
  /** a file dropped on the area (not while disabled) */
  onDropFile: (file: File) => void;
}

/**
 * A drop area around the native file input. The input stays in the page (keyboard, screen
 * readers, tests) but visually hidden: its own button would speak the browser's language,
 * so an Italian "Scegli file" label opens it.
 */
export function FileDrop({ ref, id, file, disabled, onChange, onDropFile, ...aria }: FileDropProps) {
  const [dragOver, setDragOver] = useState(false);

  const onDragOver = (e: DragEvent<HTMLDivElement>) => {
    e.preventDefault();
    if (!disabled) setDragOver(true);
  };

  const onDrop = (e: DragEvent<HTMLDivElement>) => {
    e.preventDefault();
    setDragOver(false);
    if (disabled) return;
    const dropped = e.dataTransfer.files?.[0];
    if (dropped) onDropFile(dropped);
  };

  return (
    <div
      onDragOver={onDragOver}
      onDragLeave={() => setDragOver(false)}
      onDrop={onDrop}
      className={cn(
        'flex items-center gap-3 rounded-xl border-2 border-dashed p-4 transition-colors',
        dragOver ? 'border-brand-orange bg-brand-cream' : 'border-slate-300 bg-slate-50',
      )}
    >
      <FileSpreadsheet aria-hidden="true" className="hidden size-8 shrink-0 text-brand-navy sm:block" />
      <div className="flex min-w-0 flex-1 flex-col gap-2 sm:flex-row sm:items-center sm:gap-3">
        <input
          ref={ref}
          id={id}
          type="file"
          accept=".csv,text/csv"
          disabled={disabled}
          onChange={onChange}
          data-testid="omi-file"
          {...aria}
          className="peer sr-only"
        />
        <label
          htmlFor={id}
          className={cn(
            'inline-flex h-10 shrink-0 cursor-pointer items-center justify-center self-start rounded-lg bg-brand-navy px-4 text-sm font-semibold text-white hover:bg-brand-navy-dark sm:self-auto',
            'peer-focus-visible:ring-2 peer-focus-visible:ring-brand-navy peer-focus-visible:ring-offset-2',
            // only the button looks off while an import runs: the text beside it stays readable
            'peer-disabled:cursor-not-allowed peer-disabled:opacity-60 peer-disabled:hover:bg-brand-navy',
          )}
        >
          Scegli file
        </label>
        <span className="min-w-0 text-sm text-slate-700" data-testid="omi-file-name">
          {file ? (
            <span className="break-all font-medium text-slate-900">{file.name}</span>
          ) : (
            <>
              Nessun file selezionato
              <span className="block text-xs text-slate-600">oppure trascinalo qui</span>
            </>
          )}
        </span>
      </div>
    </div>
  );
}
