import { useEffect, type ReactNode } from 'react';
import { Outlet, useNavigate } from 'react-router-dom';
import { toast } from 'sonner';
import { LoadingState } from '@/components/ui';
import { isSigningOut } from '@/lib/auth';

export type GuardDecision =
  | { status: 'loading' }
  | { status: 'allow' }
  | { status: 'deny'; to: string; toast?: { title: string; description?: string } };

/**
 * Renders the protected route only once the decision is 'allow'. While resolving, and
 * while redirecting after a denial, it shows the accessible loading state: the protected
 * page never flashes.
 */
export function GuardView({ decision, children }: { decision: GuardDecision; children?: ReactNode }) {
  const navigate = useNavigate();
  const to = decision.status === 'deny' ? decision.to : null;
  const title = decision.status === 'deny' ? decision.toast?.title : undefined;
  const description = decision.status === 'deny' ? decision.toast?.description : undefined;

  useEffect(() => {
    if (to === null) return;
    // a deliberate logout chooses its own destination
    if (isSigningOut()) return;
    // a fixed id keeps one toast even if the effect runs twice (StrictMode)
    if (title) toast.error(title, { description, id: `guard:${title}:${description ?? ''}` });
    navigate(to, { replace: true });
  }, [to, title, description, navigate]);

  if (decision.status === 'allow') return <>{children ?? <Outlet />}</>;
  // as tall as the screen, like the Suspense fallback: the footer stays below the fold
  // instead of jumping down when the page arrives (layout shift)
  return <LoadingState className="min-h-dvh" />;
}
