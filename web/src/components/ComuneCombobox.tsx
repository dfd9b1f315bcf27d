import { useId, useMemo, useRef, useState, type KeyboardEvent, type Ref } from 'react';
import { Search, X } from 'lucide-react';
import { normalizePlaceName } from '@domain/places/provinces';
import type { Comune } from '@domain/places/comuni';
import { controlClass } from '@/components/ui/Input';
import { cn } from '@/lib/cn';

const MAX_SHOWN = 100;

/** The comuni matching the text: names starting with it first, then names containing it. */
export function filterComuni(comuni: readonly Comune[], text: string): Comune[] {
  const q = normalizePlaceName(text);
  if (!q) return [...comuni];
  const starts: Comune[] = [];
  const contains: Comune[] = [];
  for (const c of comuni) {
    const n = normalizePlaceName(c.name);
    if (n.startsWith(q) || n.split(/[\s/'-]+/).some((w) => w.startsWith(q))) starts.push(c);
    else if (n.includes(q)) contains.push(c);
  }
  return [...starts, ...contains];
}

export interface ComuneComboboxProps {
  value: string;
  onChange: (value: string) => void;
  onBlur?: () => void;
  /** the comuni of the chosen province; undefined while loading */
  comuni: readonly Comune[] | undefined;
  disabled?: boolean;
  placeholder?: string;
  id?: string;
  name?: string;
  'aria-describedby'?: string;
  'aria-invalid'?: boolean | 'true' | 'false';
  'data-testid'?: string;
  ref?: Ref<HTMLInputElement>;
}

/**
 * Searchable comune picker (WAI-ARIA combobox with a list popup): type to filter, arrows
 * to move, Enter to choose, Escape to close. On leaving, text that names a comune of the
 * province becomes its exact ISTAT name; other text stays and the step's check flags it.
 */
export function ComuneCombobox({ value, onChange, onBlur, comuni, disabled, placeholder, ref, ...aria }: ComuneComboboxProps) {
  const listId = useId();
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const listRef = useRef<HTMLUListElement>(null);

  const matches = useMemo(() => (comuni ? filterComuni(comuni, value) : []), [comuni, value]);
  const shown = matches.slice(0, MAX_SHOWN);
  const expanded = open && !disabled && comuni !== undefined;
  const optionId = (i: number) => `${listId}-opt-${i}`;

  const choose = (c: Comune) => {
    onChange(c.name);
    setOpen(false);
    setActive(-1);
  };

  const moveTo = (i: number) => {
    setActive(i);
    listRef.current?.querySelector(`#${CSS.escape(optionId(i))}`)?.scrollIntoView({ block: 'nearest' });
  };

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowDown') {
      e.preventDefault();
      if (!open) setOpen(true);
      if (shown.length) moveTo(Math.min(active + 1, shown.length - 1));
    } else if (e.key === 'ArrowUp') {
      e.preventDefault();
      if (shown.length) moveTo(Math.max(active - 1, 0));
    } else if (e.key === 'Enter') {
      if (expanded && active >= 0 && shown[active]) {
        e.preventDefault();
        choose(shown[active]);
      } else if (expanded && shown.length === 1) {
        e.preventDefault();
        choose(shown[0]!);
      }
    } else if (e.key === 'Escape') {
      if (expanded) {
        e.preventDefault();
        e.stopPropagation();
        setOpen(false);
        setActive(-1);
      } else if (value) {
        e.preventDefault();
        onChange('');
      }
    } else if (e.key === 'Home' || e.key === 'End') {
      setActive(-1);
    }
  };

  const onInputBlur = () => {
    setOpen(false);
    setActive(-1);
    if (comuni && value.trim()) {
      const q = normalizePlaceName(value);
      const exact = comuni.find((c) => normalizePlaceName(c.name) === q || c.name.split('/').some((p) => normalizePlaceName(p) === q));
      if (exact && exact.name !== value) onChange(exact.name);
    }
    onBlur?.();
  };

  return (
    <div className="relative">
      <Search aria-hidden="true" className="pointer-events-none absolute left-3 top-1/2 size-4 -translate-y-1/2 text-slate-500" />
      <input
        ref={ref}
        type="text"
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={expanded}
        aria-controls={listId}
        aria-activedescendant={expanded && active >= 0 ? optionId(active) : undefined}
        autoComplete="off"
        spellCheck={false}
        disabled={disabled}
        placeholder={placeholder}
        value={value}
        onChange={(e) => {
          onChange(e.target.value);
          setOpen(true);
          setActive(-1);
        }}
        onFocus={() => setOpen(true)}
        onClick={() => setOpen(true)}
        onBlur={onInputBlur}
        onKeyDown={onKeyDown}
        className={cn(controlClass, 'h-11 pl-9', value && !disabled && 'pr-11')}
        {...aria}
      />
      {value && !disabled && (
        <button
          type="button"
          aria-label="Cancella il comune"
          tabIndex={-1}
          onMouseDown={(e) => e.preventDefault()}
          onClick={() => {
            onChange('');
            setOpen(true);
          }}
          className="absolute right-1.5 top-1/2 flex size-8 -translate-y-1/2 items-center justify-center rounded-md text-slate-600 hover:bg-slate-100"
        >
          <X aria-hidden="true" className="size-4" />
        </button>
      )}
      <ul
        ref={listRef}
        id={listId}
        role="listbox"
        aria-label="Comuni"
        hidden={!expanded}
        className="absolute inset-x-0 top-full z-30 mt-1 max-h-64 overflow-auto rounded-lg border border-slate-200 bg-white py-1 shadow-lg"
      >
        {shown.map((c, i) => (
          <li
            key={c.istat}
            id={optionId(i)}
            role="option"
            aria-selected={i === active}
            onMouseDown={(e) => e.preventDefault()}
            onClick={() => choose(c)}
            onMouseMove={() => active !== i && setActive(i)}
            className={cn('cursor-pointer px-3 py-2 text-sm text-slate-900', i === active && 'bg-brand-navy text-white')}
          >
            {c.name}
          </li>
        ))}
        {expanded && shown.length === 0 && (
          <li role="option" aria-selected={false} aria-disabled="true" className="px-3 py-2 text-sm text-slate-600">
            Nessun comune trovato
          </li>
        )}
        {matches.length > MAX_SHOWN && (
          <li role="option" aria-selected={false} aria-disabled="true" className="px-3 py-2 text-xs text-slate-600">
            Altri {matches.length - MAX_SHOWN} comuni: continua a digitare per restringere
          </li>
        )}
      </ul>
    </div>
  );
}
