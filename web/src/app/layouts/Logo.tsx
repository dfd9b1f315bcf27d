import { cn } from '@/lib/cn';

function Mark({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 64 64" aria-hidden="true" focusable="false" className={className}>
      <rect width="64" height="64" rx="14" fill="#223d73" />
      <path d="M12 32 32 14l20 18" fill="none" stroke="#ff6603" strokeWidth="6" strokeLinecap="round" strokeLinejoin="round" />
      <path d="M19 30v20h26V30" fill="none" stroke="#fff" strokeWidth="5" strokeLinejoin="round" />
      <path d="M28 50V39h8v11z" fill="#fff" />
    </svg>
  );
}

/** Brand logo: mark + wordmark from `sm` up, the mark alone (compact variant) on small screens. */
export function Logo({ className }: { className?: string }) {
  return (
    <span className={cn('inline-flex items-center gap-2.5', className)}>
      <Mark className="size-9 shrink-0 sm:size-10" />
      <svg viewBox="0 0 168 40" aria-hidden="true" focusable="false" className="hidden h-10 w-auto sm:block">
        <text
          x="0"
          y="22"
          textLength="150"
          lengthAdjust="spacingAndGlyphs"
          fontFamily="ui-sans-serif, system-ui, sans-serif"
          fontSize="22"
          fontWeight="800"
          fill="#223d73"
        >
          Opzione <tspan fill="#ff6603">Casa</tspan>
        </text>
        <text
          x="1"
          y="37"
          textLength="149"
          lengthAdjust="spacing"
          fontFamily="ui-sans-serif, system-ui, sans-serif"
          fontSize="9"
          fontWeight="600"
          fill="#475569"
        >
          VALUTA · OPZIONA · VENDI
        </text>
      </svg>
      <svg viewBox="0 0 112 24" aria-hidden="true" focusable="false" className="h-6 w-auto sm:hidden">
        <text
          x="0"
          y="18"
          textLength="110"
          lengthAdjust="spacingAndGlyphs"
          fontFamily="ui-sans-serif, system-ui, sans-serif"
          fontSize="18"
          fontWeight="800"
          fill="#223d73"
        >
          Opzione <tspan fill="#ff6603">Casa</tspan>
        </text>
      </svg>
    </span>
  );
}
