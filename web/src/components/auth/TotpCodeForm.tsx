import { Button } from '@/components/ui';
import { authErrorMessage } from '@/lib/auth';
import { CodeForm } from './CodeForm';
import { totpCodeSchema } from '@/lib/auth-schemas';

/** Cognito's errors about a TOTP code, in Italian (a wrong code points to the app, not the e-mail). */
export function totpErrorMessage(err: unknown): string {
  const name = (err as { name?: string } | undefined)?.name;
  if (name === 'CodeMismatchException' || name === 'EnableSoftwareTokenMFAException') {
    return "Codice non corretto: controlla l'app di autenticazione e riprova.";
  }
  if (name === 'ExpiredCodeException' || name === 'NotAuthorizedException') {
    return 'La sessione di accesso è scaduta: torna al login e riprova.';
  }
  return authErrorMessage(err);
}

export interface TotpCodeFormProps {
  /** checks the code; throws Cognito's error when it is refused */
  onCode: (code: string) => Promise<void>;
  title: string;
  intro: string;
  submitLabel: string;
  idPrefix: string;
  onBack?: () => void;
  backLabel?: string;
}

/** One 6-digit code of an authenticator app (sign-in step, or the first code of a set-up). */
export function TotpCodeForm({ onCode, title, intro, submitLabel, idPrefix, onBack, backLabel = 'Indietro' }: TotpCodeFormProps) {
  return (
    <CodeForm
      schema={totpCodeSchema}
      idPrefix={idPrefix}
      title={title}
      intro={intro}
      label="Codice dell'app di autenticazione"
      submitLabel={submitLabel}
      pendingLabel="Verifica in corso..."
      onCode={async (code) => {
        try {
          await onCode(code);
          return undefined;
        } catch (err) {
          return totpErrorMessage(err);
        }
      }}
      actions={(submitting) =>
        onBack && (
          <Button variant="ghost" size="sm" disabled={submitting} onClick={onBack} data-testid={`${idPrefix}-back`}>
            {backLabel}
          </Button>
        )
      }
    />
  );
}
