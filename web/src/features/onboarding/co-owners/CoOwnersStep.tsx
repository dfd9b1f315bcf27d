import { useState } from 'react';
import { Plus, Send, Trash2 } from 'lucide-react';
import { toast } from 'sonner';
import type { KycCoOwner } from '@domain/onboarding/kyc';
import { ONBOARDING_MESSAGES, ownershipShares, shareTotal, shareWarning } from '@domain/onboarding/rules';
import { Badge, Button, Field, Input } from '@/components/ui';
import { errorMessage } from '@/lib/api';
import { inviteCoOwners, replaceCoOwners, skipCoOwners } from '../api';

interface Row {
  key: number;
  email: string;
  fullName: string;
  share: string;
}

let nextKey = 1;
const emptyRow = (): Row => ({ key: nextKey++, email: '', fullName: '', share: '' });
const toNumber = (s: string) => Number(s.replace(',', '.'));

const validSellerShare = (n: number) => n > 0 && n < 100;

/** Step 2: the seller's own share and the co-owners with theirs (together 100), invitations, or 'Salta (Proprietà Singola)'. */
export function CoOwnersStep({
  propertyId,
  sellerShare: savedSellerShare,
  coOwners,
  singleOwner,
  onChanged,
}: {
  propertyId: string;
  /** the seller's share saved with the list (null: never asked) */
  sellerShare: number | null;
  coOwners: KycCoOwner[];
  singleOwner: boolean;
  onChanged: () => void;
}) {
  const [rows, setRows] = useState<Row[]>(() =>
    coOwners.length ? coOwners.map((c) => ({ key: nextKey++, email: c.email, fullName: c.fullName, share: String(c.share) })) : [],
  );
  const [sellerShare, setSellerShare] = useState(savedSellerShare === null ? '' : String(savedSellerShare));
  const [busy, setBusy] = useState<'send' | 'skip' | null>(null);
  const shares = ownershipShares(toNumber(sellerShare) || 0, rows.map((r) => ({ share: toNumber(r.share) || 0 })));
  const warning = rows.length ? shareWarning(shares) : null;
  const total = shareTotal(shares);
  const badgeOf = (email: string) => coOwners.find((c) => c.email === email.trim().toLowerCase())?.badge ?? null;

  const update = (key: number, patch: Partial<Row>) => setRows((rs) => rs.map((r) => (r.key === key ? { ...r, ...patch } : r)));

  const send = async () => {
    const incomplete = rows.some((r) => !r.email.trim() || !r.fullName.trim() || !(toNumber(r.share) > 0));
    if (!rows.length || incomplete) {
      toast.error('Dati mancanti', { description: 'Inserisci email, nome completo e quota (maggiore di 0) di ogni comproprietario.' });
      return;
    }
    if (!validSellerShare(toNumber(sellerShare))) {
      toast.error('Dati mancanti', { description: ONBOARDING_MESSAGES.sellerShare });
      return;
    }
    setBusy('send');
    try {
      await replaceCoOwners(
        propertyId,
        toNumber(sellerShare),
        rows.map((r) => ({ email: r.email.trim(), fullName: r.fullName.trim(), share: toNumber(r.share) })),
      ).catch((err: unknown) => {
        throw Object.assign(new Error(errorMessage(err)), { title: "Errore nell'aggiunta del comproprietario" });
      });
      try {
        await inviteCoOwners(propertyId);
      } catch (err) {
        // everyone already invited: nothing to send
        if (!(err instanceof Error && err.message === 'Nessun comproprietario da invitare')) throw Object.assign(new Error(errorMessage(err)), { title: "Errore nell'invio degli inviti" });
      }
      toast.success('Inviti inviati', { description: 'I comproprietari riceveranno un link via email.' });
      onChanged();
    } catch (err) {
      toast.error((err as { title?: string }).title ?? "Errore nell'invio degli inviti", { description: errorMessage(err) });
    } finally {
      setBusy(null);
    }
  };

  const skip = async () => {
    setBusy('skip');
    try {
      await skipCoOwners(propertyId);
      toast.success('Proprietà singola', { description: 'Nessun comproprietario da invitare.' });
      onChanged();
    } catch (err) {
      toast.error('Errore', { description: errorMessage(err) });
    } finally {
      setBusy(null);
    }
  };

  return (
    <div className="space-y-4" data-testid="coowners-step">
      {singleOwner && !coOwners.length && <p className="text-sm text-slate-700">Hai indicato che sei l&apos;unico proprietario. Puoi comunque aggiungere dei comproprietari.</p>}
      {rows.length > 0 && (
        <div className="max-w-48">
          <Field label="La tua quota (%)" hint="La tua quota più quelle dei comproprietari deve fare 100%.">
            <Input type="number" inputMode="decimal" min={0} max={100} step="any" value={sellerShare} onChange={(e) => setSellerShare(e.target.value)} data-testid="seller-share" />
          </Field>
        </div>
      )}
      {rows.length > 0 && (
        <ul className="space-y-3" aria-label="Comproprietari">
          {rows.map((r, i) => {
            const badge = badgeOf(r.email);
            return (
              <li key={r.key} className="space-y-3 rounded-lg border border-slate-200 p-3" data-testid="coowner-row">
                <div className="flex items-center justify-between gap-2">
                  <p className="text-sm font-semibold text-slate-800">Comproprietario {i + 1}</p>
                  <div className="flex items-center gap-2">
                    {badge && <Badge variant={badge === 'Verificato' ? 'success' : 'secondary'}>{badge}</Badge>}
                    <Button variant="ghost" size="sm" onClick={() => setRows((rs) => rs.filter((x) => x.key !== r.key))} aria-label={`Rimuovi comproprietario ${i + 1}`}>
                      <Trash2 aria-hidden="true" className="size-4" />
                    </Button>
                  </div>
                </div>
                <div className="grid gap-3 sm:grid-cols-[2fr_2fr_1fr]">
                  <Field label="Email">
                    <Input type="email" autoComplete="off" value={r.email} onChange={(e) => update(r.key, { email: e.target.value })} data-testid="coowner-email" />
                  </Field>
                  <Field label="Nome completo">
                    <Input value={r.fullName} onChange={(e) => update(r.key, { fullName: e.target.value })} data-testid="coowner-name" />
                  </Field>
                  <Field label="Quota (%)">
                    <Input type="number" inputMode="decimal" min={0} max={100} step="any" value={r.share} onChange={(e) => update(r.key, { share: e.target.value })} data-testid="coowner-share" />
                  </Field>
                </div>
              </li>
            );
          })}
        </ul>
      )}
      {rows.length > 0 && (
        <p className={warning ? 'text-sm font-medium text-amber-800' : 'text-sm text-slate-700'} role="status" data-testid="coowner-total">
          {warning ?? `Totale quote: ${total}%`}
        </p>
      )}
      <div className="flex flex-col gap-2 sm:flex-row sm:flex-wrap">
        <Button variant="outline" onClick={() => setRows((rs) => [...rs, emptyRow()])} data-testid="coowner-add">
          <Plus aria-hidden="true" className="size-4" />
          Aggiungi comproprietario
        </Button>
        {rows.length > 0 && (
          <Button onClick={() => void send()} loading={busy === 'send'} disabled={busy !== null || warning !== null} data-testid="coowner-send">
            <Send aria-hidden="true" className="size-4" />
            Invia inviti
          </Button>
        )}
        <Button variant="secondary" onClick={() => void skip()} loading={busy === 'skip'} disabled={busy !== null} data-testid="coowner-skip">
          Salta (Proprietà Singola)
        </Button>
      </div>
    </div>
  );
}
