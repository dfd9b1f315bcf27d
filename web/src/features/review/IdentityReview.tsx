/**
 * The identity check seen by the admin: both images side by side, the confidence and the
 * document's data (Istruttoria, step 3) and, for a check in review (60-70 % or not completed
 * by the engine), the decision: approve or reject with a reason (recorded with who and when).
 * Also the queue of the checks waiting for a decision (/identity-reviews).
 */
import { useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { ShieldCheck } from 'lucide-react';
import { formatDateTime, formatDecimal } from '@domain/format';
import { DOCUMENT_TYPE_LABELS, IDENTITY_MESSAGES, LOW_CONFIDENCE, MATCH_MIN_SIMILARITY, REVIEW_REASON_MAX, type DocumentType } from '@domain/identity';
import type { DossierIdentity } from '@domain/requests';
import { Badge, Button, EmptyState, ErrorState, Field, LoadingState } from '@/components/ui';
import { errorMessage, isApiError } from '@/lib/api';
import { usePageTitle } from '@/lib/use-page-title';
import { decideCoOwnerIdentityReview, decideIdentityReview, identityReviewKeys, listIdentityReviews, requestKeys } from './api';

const confidenceLabel = (c: number | null) => (c === null ? 'non disponibile' : `${formatDecimal(c)}%`);

function confidenceVariant(c: number | null): 'success' | 'warning' | 'secondary' {
  if (c === null) return 'secondary';
  return c >= LOW_CONFIDENCE ? 'success' : c >= MATCH_MIN_SIMILARITY ? 'warning' : 'secondary';
}

/** Face photo and document front side by side (presigned GETs). */
function SideBySide({ face, front, back }: { face: string | null | undefined; front: string | null | undefined; back?: string | null }) {
  const images = [
    ['Foto del volto', face],
    ['Documento (fronte)', front],
    ['Documento (retro)', back],
  ] as const;
  return (
    <div className="grid gap-3 sm:grid-cols-2" data-testid="identity-images">
      {images
        .filter(([, url]) => url)
        .map(([label, url]) => (
          <figure key={label} className="rounded-lg border border-slate-200 p-2">
            <img src={url!} alt={label} className="max-h-72 w-full rounded object-contain" loading="lazy" />
            <figcaption className="mt-1 text-sm text-slate-700">{label}</figcaption>
          </figure>
        ))}
    </div>
  );
}

/** The document's data and the confidence. */
function IdentityFacts({ documentType, documentNumber, fullName, confidence }: { documentType: DocumentType; documentNumber: string | null; fullName: string | null; confidence: number | null }) {
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm" data-testid="identity-facts">
      <dt className="text-slate-600">Documento</dt>
      <dd>{DOCUMENT_TYPE_LABELS[documentType] ?? documentType}</dd>
      <dt className="text-slate-600">Numero</dt>
      <dd>{documentNumber || '-'}</dd>
      <dt className="text-slate-600">Nome indicato</dt>
      <dd>{fullName || '-'}</dd>
      <dt className="text-slate-600">Somiglianza del volto</dt>
      <dd>
        <Badge variant={confidenceVariant(confidence)}>
          <span data-testid="identity-confidence">{confidenceLabel(confidence)}</span>
        </Badge>
      </dd>
    </dl>
  );
}

/** Approve or reject a check in review (the owner's, or a co-owner's), with a reason. */
function DecisionForm({ propertyId, coOwnerId, checkedAt, onDone }: { propertyId: string; coOwnerId?: string; checkedAt: string | null; onDone?: () => void }) {
  const qc = useQueryClient();
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const reasonField = useRef<HTMLTextAreaElement>(null);
  const mutation = useMutation({
    mutationFn: (decision: 'approve' | 'reject') => {
      // the decision is for the check on screen: a newer one made meanwhile answers 409
      const input = { decision, reason: reason.trim(), checkedAt: checkedAt ?? '' };
      return coOwnerId ? decideCoOwnerIdentityReview(propertyId, coOwnerId, input) : decideIdentityReview(propertyId, input);
    },
    onSuccess: async (res) => {
      toast.success(res.identity.status === 'verified' ? IDENTITY_MESSAGES.reviewApproved : IDENTITY_MESSAGES.reviewRejected);
      setReason('');
      await refresh();
      onDone?.();
    },
    onError: (err) => {
      if (!isApiError(err, 409)) return setError(errorMessage(err));
      // decided by another admin, or a newer check arrived: say so and show what is there now
      // (the item leaves the list, or shows the new photos, the reason kept for a new decision)
      toast.error(errorMessage(err));
      void refresh();
    },
  });
  const refresh = () => Promise.all([qc.invalidateQueries({ queryKey: requestKeys.dossier(propertyId) }), qc.invalidateQueries({ queryKey: identityReviewKeys.queue })]);
  const submit = (decision: 'approve' | 'reject') => {
    if (reason.trim() === '') {
      setError(IDENTITY_MESSAGES.reviewReason);
      // to the field: a screen reader reads its label and the error tied to it
      return reasonField.current?.focus();
    }
    setError(null);
    mutation.mutate(decision);
  };
  const id = `identity-review-reason-${propertyId}${coOwnerId ? `-${coOwnerId}` : ''}`;
  return (
    <div className="mt-3 space-y-2" data-testid="identity-review-form">
      <Field label="Motivo della decisione" id={id} error={error ?? undefined}>
        <textarea
          id={id}
          ref={reasonField}
          className="w-full rounded-md border border-slate-300 p-2 text-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-navy"
          rows={2}
          maxLength={REVIEW_REASON_MAX}
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          data-testid="identity-review-reason"
        />
      </Field>
      <div className="flex flex-wrap gap-2">
        <Button type="button" onClick={() => submit('approve')} disabled={mutation.isPending} data-testid="identity-review-approve">
          Approva l'identità
        </Button>
        <Button type="button" variant="outline" onClick={() => submit('reject')} disabled={mutation.isPending} data-testid="identity-review-reject">
          Rifiuta
        </Button>
      </div>
    </div>
  );
}

/** Istruttoria, step 3: the identity check with its images, confidence, document data and (in review) the decision. */
export function IdentityDetails({ propertyId, identity }: { propertyId: string; identity: DossierIdentity }) {
  return (
    <div className="mt-3 space-y-3">
      <IdentityFacts documentType={identity.documentType} documentNumber={identity.documentNumber} fullName={identity.fullName} confidence={identity.confidence} />
      <SideBySide face={identity.files.facePhoto?.url} front={identity.files.documentFront?.url} back={identity.files.documentBack?.url} />
      {identity.status === 'pending' && (
        <>
          <DecisionForm propertyId={propertyId} checkedAt={identity.checkedAt} />
          <Link className="text-sm font-medium text-brand-navy underline" to="/identity-reviews">
            Tutte le verifiche di identità da controllare
          </Link>
        </>
      )}
    </div>
  );
}

/** /identity-reviews (admin): the checks waiting for a decision, oldest first. */
export default function IdentityReviewsPage() {
  usePageTitle('Verifiche di identità da controllare');
  const query = useQuery({ queryKey: identityReviewKeys.queue, queryFn: ({ signal }) => listIdentityReviews(signal) });
  return (
    <div className="mx-auto w-full max-w-5xl px-4 py-8 sm:px-6 sm:py-10">
      <h1 className="text-2xl font-bold text-brand-navy">Verifiche di identità da controllare</h1>
      <p className="mt-1 text-slate-700">
        Somiglianza tra {MATCH_MIN_SIMILARITY}% e {LOW_CONFIDENCE}%, o verifica automatica non completata: confronta le foto e decidi.
      </p>
      {query.isPending ? (
        <LoadingState />
      ) : query.isError ? (
        <ErrorState title="Impossibile caricare le verifiche" error={query.error} onRetry={() => void query.refetch()} />
      ) : query.data.reviews.length === 0 ? (
        <EmptyState icon={ShieldCheck} title="Nessuna verifica in attesa" />
      ) : (
        <ul className="mt-6 space-y-6" data-testid="identity-review-queue">
          {query.data.reviews.map((r) => (
            <li key={`${r.propertyId}-${r.coOwner?.id ?? ''}`} className="rounded-lg border border-slate-200 p-4" data-testid="identity-review-item" data-property-id={r.propertyId}>
              {r.coOwner && (
                <p className="font-semibold text-slate-800" data-testid="identity-review-co-owner">
                  Comproprietario: {r.coOwner.fullName}
                </p>
              )}
              <p className="text-sm text-slate-700">
                Verifica del {formatDateTime(r.checkedAt)} -{' '}
                <Link className="font-medium text-brand-navy underline" to={`/investigation/${encodeURIComponent(r.propertyId)}`}>
                  apri l'istruttoria
                </Link>
              </p>
              <div className="mt-2 space-y-3">
                <IdentityFacts documentType={r.documentType} documentNumber={r.documentNumber} fullName={r.fullName} confidence={r.confidence} />
                <SideBySide face={r.images.facePhoto} front={r.images.documentFront} back={r.images.documentBack} />
                <DecisionForm propertyId={r.propertyId} coOwnerId={r.coOwner?.id} checkedAt={r.checkedAt || null} />
              </div>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
