import { useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { toast } from 'sonner';
import { Button, Field, Input } from '@/components/ui';
import { authErrorMessage, confirmSignUpCode, resendSignUpCode } from '@/lib/auth';
import { confirmCodeSchema, type ConfirmCodeInput, type ConfirmCodeValues } from './schemas';

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
  const headingRef = useRef<HTMLHeadingElement>(null);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<ConfirmCodeInput, unknown, ConfirmCodeValues>({
    resolver: zodResolver(confirmCodeSchema),
    defaultValues: { code: '' },
  });

  useEffect(() => {
    headingRef.current?.focus();
  }, []);

  const onValid = async ({ code }: ConfirmCodeValues) => {
    try {
      await confirmSignUpCode(email, code);
    } catch (err) {
      setError('code', { message: authErrorMessage(err, 'signUp') });
      return;
    }
    await onConfirmed();
  };

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
    <form noValidate onSubmit={handleSubmit(onValid)} className="space-y-4" aria-labelledby={`${idPrefix}-title`} data-testid={`${idPrefix}-form`}>
      <div className="space-y-2">
        <h2 id={`${idPrefix}-title`} ref={headingRef} tabIndex={-1} className="text-lg font-semibold text-slate-900 outline-none">
          Conferma la tua email
        </h2>
        <p className="text-sm text-slate-700">
          {fromLogin ? 'Il tuo account non è ancora confermato. ' : ''}
          Abbiamo inviato un codice di 6 cifre a <strong className="break-all">{email}</strong>. Inseriscilo qui per
          completare la registrazione.
        </p>
      </div>
      <Field label="Codice di conferma" id={`${idPrefix}-code`} hint="Non lo trovi? Controlla anche la cartella spam." error={errors.code?.message}>
        <Input
          autoComplete="one-time-code"
          inputMode="numeric"
          maxLength={12}
          placeholder="123456"
          aria-required="true"
          data-testid={`${idPrefix}-code`}
          className="text-lg tracking-widest"
          {...register('code')}
        />
      </Field>
      <Button type="submit" size="lg" className="w-full" loading={isSubmitting} data-testid={`${idPrefix}-submit`}>
        {isSubmitting ? 'Conferma in corso...' : 'Conferma email'}
      </Button>
      <div className="flex flex-col gap-2 sm:flex-row sm:justify-between">
        <Button variant="ghost" size="sm" loading={resending} disabled={resending || isSubmitting} onClick={() => void resend()} data-testid={`${idPrefix}-resend`}>
          Invia di nuovo il codice
        </Button>
        {onBack && (
          <Button variant="ghost" size="sm" disabled={isSubmitting} onClick={onBack} data-testid={`${idPrefix}-back`}>
            {backLabel}
          </Button>
        )}
      </div>
    </form>
  );
}
