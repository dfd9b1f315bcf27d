import { useState } from 'react';
import { toast } from 'sonner';
import { Button } from '@/components/ui';
import { authErrorMessage, confirmSignUpCode, resendSignUpCode } from '@/lib/auth';
import { CodeForm } from './CodeForm';
import { confirmCodeSchema } from '@/lib/auth-schemas';

export interface ConfirmSignUpFormProps {
  email: string;
  /** called once the code is accepted (the account is confirmed) */
  onConfirmed: () => Promise<void> | void;
  /** back to the previous form (another e-mail, or the login) */
  onBack?: () => void;
  backLabel?: string;
  /** prefix of input ids and data-testids */
  idPrefix?: string;
  /** true when the person arrives from the login (no code was just sent) */
  fromLogin?: boolean;
}

/**
 * The confirmation step of a sign-up: the 6-digit code Cognito e-mailed to the address,
 * "invia di nuovo il codice", and Cognito's errors in Italian (wrong, expired, too many tries).
 */
export function ConfirmSignUpForm({
  email,
  onConfirmed,
  onBack,
  backLabel = 'Indietro',
  idPrefix = 'confirm',
  fromLogin = false,
}: ConfirmSignUpFormProps) {
  const [resending, setResending] = useState(false);

  const resend = async () => {
    setResending(true);
    try {
      await resendSignUpCode(email);
      toast.success('Codice inviato', { description: `Abbiamo inviato un nuovo codice a ${email}` });
    } catch (err) {
      toast.error('Invio non riuscito', { description: authErrorMessage(err, 'signUp') });
    } finally {
      setResending(false);
    }
  };

  return (
    <CodeForm
      schema={confirmCodeSchema}
      idPrefix={idPrefix}
      title="Conferma la tua email"
      intro={
        <>
          {fromLogin ? 'Il tuo account non è ancora confermato. ' : ''}
          Abbiamo inviato un codice di 6 cifre a <strong className="break-all">{email}</strong>. Inseriscilo qui per
          completare la registrazione.
        </>
      }
      label="Codice di conferma"
      hint="Non lo trovi? Controlla anche la cartella spam."
      submitLabel="Conferma email"
      pendingLabel="Conferma in corso..."
      onCode={async (code) => {
        try {
          await confirmSignUpCode(email, code);
        } catch (err) {
          return authErrorMessage(err, 'signUp');
        }
        await onConfirmed();
        return undefined;
      }}
      actions={(submitting) => (
        <div className="flex flex-col gap-2 sm:flex-row sm:justify-between">
          <Button variant="ghost" size="sm" loading={resending} disabled={resending || submitting} onClick={() => void resend()} data-testid={`${idPrefix}-resend`}>
            Invia di nuovo il codice
          </Button>
          {onBack && (
            <Button variant="ghost" size="sm" disabled={submitting} onClick={onBack} data-testid={`${idPrefix}-back`}>
              {backLabel}
            </Button>
          )}
        </div>
      )}
    />
  );
}
