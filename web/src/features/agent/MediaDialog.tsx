import { useQuery } from '@tanstack/react-query';
import { ImageOff } from 'lucide-react';
import { AGENT_MESSAGES } from '@domain/agent-requests';
import { isVideoFileName } from '@domain/property/media';
import { ROOM_TYPE_LABELS } from '@domain/property/enums';
import { Dialog, EmptyState, ErrorState, LoadingState } from '@/components/ui';
import { agentKeys, getOptionMedia } from './api';

/**
 * 'Foto e Video dell'Immobile': the option's photos and videos grouped by room (videos
 * recognised by extension: mp4, mov, avi, webm), through short-lived presigned URLs.
 */
export function MediaDialog({ propertyId, place, onClose }: { propertyId: string | null; place: string; onClose: () => void }) {
  const query = useQuery({
    queryKey: agentKeys.media(propertyId ?? ''),
    queryFn: ({ signal }) => getOptionMedia(propertyId!, signal),
    enabled: propertyId !== null,
    // the URLs expire after 5 minutes: never show stale ones
    staleTime: 60_000,
    gcTime: 60_000,
  });
  const rooms = query.data?.rooms ?? [];
  const total = rooms.reduce((n, r) => n + r.media.length, 0);
  return (
    <Dialog open={propertyId !== null} onClose={onClose} title="Foto e Video dell'Immobile" description={place} className="max-w-3xl!">
      <div className="max-h-[70vh] overflow-y-auto" data-testid="media-dialog">
        {query.isPending ? (
          <LoadingState label="Caricamento delle foto..." className="min-h-40" />
        ) : query.isError ? (
          <ErrorState title={AGENT_MESSAGES.mediaLoadFailed} error={query.error} onRetry={() => void query.refetch()} />
        ) : total === 0 ? (
          <EmptyState icon={ImageOff} title={AGENT_MESSAGES.noMedia} testId="media-empty" />
        ) : (
          <div className="space-y-6">
            {rooms.map((room) => {
              const name = room.name || ROOM_TYPE_LABELS[room.type] || 'Stanza';
              return (
                <section key={room.id} aria-labelledby={`room-${room.id}`} data-testid="media-room">
                  <h3 id={`room-${room.id}`} className="font-semibold text-brand-navy">
                    {name}
                  </h3>
                  {room.media.length === 0 ? (
                    <p className="mt-2 text-sm text-slate-600">{AGENT_MESSAGES.noPhotos}</p>
                  ) : (
                    <ul className="mt-2 grid grid-cols-2 gap-3 sm:grid-cols-3">
                      {room.media.map((m, i) =>
                        isVideoFileName(m.fileName) ? (
                          <li key={m.id} data-testid="media-video">
                            <video controls preload="metadata" src={m.url} className="aspect-video w-full rounded-lg bg-slate-900" aria-label={`${name}: video ${i + 1}`}>
                              <a href={m.url}>Scarica il video</a>
                            </video>
                          </li>
                        ) : (
                          <li key={m.id} data-testid="media-photo">
                            <a href={m.url} target="_blank" rel="noreferrer" className="block rounded-lg focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-navy">
                              <img src={m.url} alt={`${name}: foto ${i + 1}`} loading="lazy" className="aspect-video w-full rounded-lg bg-slate-100 object-cover" />
                              <span className="sr-only"> (si apre in una nuova scheda)</span>
                            </a>
                          </li>
                        ),
                      )}
                    </ul>
                  )}
                </section>
              );
            })}
          </div>
        )}
      </div>
    </Dialog>
  );
}
