import { useId, useRef, type KeyboardEvent, type ReactNode } from 'react';
import { cn } from '@/lib/cn';

export interface TabItem<V extends string> {
  value: V;
  label: ReactNode;
  content: ReactNode;
  testId?: string;
}

export interface TabsProps<V extends string> {
  items: readonly TabItem<V>[];
  value: V;
  onChange: (value: V) => void;
  /** accessible name of the tab list */
  label: string;
  className?: string;
}

/** WAI-ARIA tabs (automatic activation): arrow keys, Home and End move between tabs. */
export function Tabs<V extends string>({ items, value, onChange, label, className }: TabsProps<V>) {
  const base = useId();
  const refs = useRef<(HTMLButtonElement | null)[]>([]);
  const tabId = (v: V) => `${base}-tab-${v}`;
  const panelId = (v: V) => `${base}-panel-${v}`;

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const index = items.findIndex((i) => i.value === value);
    let next = index;
    if (event.key === 'ArrowRight') next = (index + 1) % items.length;
    else if (event.key === 'ArrowLeft') next = (index - 1 + items.length) % items.length;
    else if (event.key === 'Home') next = 0;
    else if (event.key === 'End') next = items.length - 1;
    else return;
    event.preventDefault();
    const item = items[next];
    if (item) {
      onChange(item.value);
      refs.current[next]?.focus();
    }
  };

  const active = items.find((i) => i.value === value) ?? items[0];

  return (
    <div className={className}>
      <div
        role="tablist"
        aria-label={label}
        onKeyDown={onKeyDown}
        className="grid auto-cols-fr grid-flow-col gap-1 rounded-xl bg-slate-100 p-1"
      >
        {items.map((item, i) => {
          const selected = item.value === active?.value;
          return (
            <button
              key={item.value}
              ref={(el) => {
                refs.current[i] = el;
              }}
              type="button"
              role="tab"
              id={tabId(item.value)}
              aria-selected={selected}
              aria-controls={panelId(item.value)}
              tabIndex={selected ? 0 : -1}
              data-testid={item.testId}
              onClick={() => onChange(item.value)}
              className={cn(
                'min-h-10 rounded-lg px-3 py-2 text-sm font-semibold leading-tight transition-colors',
                'focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-navy focus-visible:ring-offset-1',
                selected ? 'bg-white text-brand-navy shadow-sm' : 'text-slate-700 hover:text-brand-navy',
              )}
            >
              {item.label}
            </button>
          );
        })}
      </div>
      {active && (
        <div
          role="tabpanel"
          id={panelId(active.value)}
          aria-labelledby={tabId(active.value)}
          tabIndex={0}
          className="mt-6 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-navy/40 rounded-lg"
        >
          {active.content}
        </div>
      )}
    </div>
  );
}
