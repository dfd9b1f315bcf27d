import { ShieldCheck } from 'lucide-react';
import { formatDateTime } from '@domain/format';
import type { DigitalSigner } from '@domain/onboarding/digital-signature';

/**
 * The signers of a verified firma digitale (the seller's onboarding and the admin's review
 * show the same): holder, codice fiscale, certification authority and signing time.
 */
export function SignersList({ signers, title = 'Firma digitale verificata', testId }: { signers: readonly DigitalSigner[]; title?: string; testId?: string }) {
  return (
    <div className="rounded-md border border-green-200 bg-green-50 p-3 text-sm text-slate-800" data-testid={testId}>
      <p className="flex items-center gap-1.5 font-semibold text-green-900">
        <ShieldCheck aria-hidden="true" className="size-4" />
        {title}
      </p>
      <ul className="mt-2 space-y-2" aria-label="Firmatari">
        {signers.map((s, i) => (
          <li key={`${s.fiscalCode ?? s.name}-${i}`} className="break-words" data-testid="signer">
            <span className="font-medium">{s.name}</span>
            {s.fiscalCode && <span className="text-slate-700"> · codice fiscale {s.fiscalCode}</span>}
            <br />
            <span className="text-slate-700">
              Certificato di {s.issuer}
              {s.signingTime ? ` · firmato il ${formatDateTime(s.signingTime)}` : ''}
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}
