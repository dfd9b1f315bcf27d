import { useInfiniteQuery } from '@tanstack/react-query';
import { History } from 'lucide-react';
import { ActivityList } from '@/components/activity/ActivityList';
import { Button, Card, CardContent, EmptyState, ErrorState, LoadingState } from '@/components/ui';
import { usePageTitle } from '@/lib/use-page-title';
import { activityKeys, listActivity } from './api';

/** /activity (admin): every change of requests, options, identity reviews, agents and payments, newest first. */
export default function ActivityPage() {
  usePageTitle('Attività');
  const query = useInfiniteQuery({
    queryKey: activityKeys.feed,
    queryFn: ({ pageParam, signal }) => listActivity(pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor,
  });
  const entries = query.data?.pages.flatMap((p) => p.items) ?? [];
  return (
    <div className="mx-auto w-full max-w-4xl px-4 py-8 sm:px-6 sm:py-10">
      <h1 className="text-2xl font-bold sm:text-3xl">Attività</h1>
      <p className="mt-2 max-w-2xl text-slate-700">
        Chi ha cambiato cosa e quando: richieste, opzioni, verifiche dell&apos;identità, agenti e pagamenti, dalla modifica più recente.
      </p>
      <Card className="mt-6">
        <CardContent>
          {query.isPending ? (
            <LoadingState label="Caricamento delle attività..." className="min-h-48" />
          ) : query.isError ? (
            <ErrorState title="Impossibile caricare le attività" error={query.error} onRetry={() => void query.refetch()} testId="activity-error" />
          ) : entries.length ? (
            <>
              <ActivityList entries={entries} withProperty />
              {query.hasNextPage && (
                <Button variant="outline" className="mt-4" onClick={() => void query.fetchNextPage()} loading={query.isFetchingNextPage} data-testid="activity-more">
                  Mostra altre attività
                </Button>
              )}
            </>
          ) : (
            <EmptyState icon={History} title="Nessuna attività registrata" testId="activity-empty" />
          )}
        </CardContent>
      </Card>
    </div>
  );
}
