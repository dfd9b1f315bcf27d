import type { ReactNode } from 'react';
import { Hourglass } from 'lucide-react';
import { Card, CardContent } from '@/components/ui';
import { usePageTitle } from '@/lib/use-page-title';

export interface ComingSoonProps {
  title: string;
  subtitle?: ReactNode;
  /** rendered above the title (e.g. a back link) */
  before?: ReactNode;
  /** page width: 'wide' in the full-width layouts, 'content' inside a side-menu area */
  width?: 'wide' | 'content';
}

/** Page skeleton for screens a later release fills in: title (h1) and an 'In arrivo' body. */
export function ComingSoon({ title, subtitle, before, width = 'wide' }: ComingSoonProps) {
  usePageTitle(title);
  return (
    <div className={width === 'wide' ? 'mx-auto w-full max-w-6xl px-4 py-10 sm:px-6' : 'w-full'}>
      {before}
      <h1 className="text-2xl font-bold sm:text-3xl">{title}</h1>
      {subtitle && <p className="mt-2 text-slate-700">{subtitle}</p>}
      <Card className="mt-8">
        <CardContent className="flex items-start gap-4">
          <Hourglass aria-hidden="true" className="mt-0.5 size-6 shrink-0 text-brand-orange-dark" />
          <div>
            <h2 className="text-lg font-semibold">In arrivo</h2>
            <p className="mt-1 text-slate-700">Questa sezione sarà disponibile a breve.</p>
          </div>
        </CardContent>
      </Card>
    </div>
  );
}
