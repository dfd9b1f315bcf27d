import { useEffect, useRef } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Field, Input } from '@/components/ui';
import { authErrorMessage } from '@/lib/auth';
import { totpCodeSchema, type ConfirmCodeInput, type ConfirmCodeValues } from './schemas';

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
  const headingRef = useRef<HTMLHeadingElement>(null);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<ConfirmCodeInput, unknown, ConfirmCodeValues>({ resolver: zodResolver(totpCodeSchema), defaultValues: { code: '' } });

  useEffect(() => {
    headingRef.current?.focus();
  }, []);

  const onValid = async ({ code }: ConfirmCodeValues) => {
    try {
      await onCode(code);
    } catch (err) {
      setError('code', { message: totpErrorMessage(err) });
    }
  };

  return (
    <form noValidate onSubmit={handleSubmit(onValid)} className="space-y-4" aria-labelledby={`${idPrefix}-title`} data-testid={`${idPrefix}-form`}>
      <div className="space-y-2">
        <h2 id={`${idPrefix}-title`} ref={headingRef} tabIndex={-1} className="text-lg font-semibold text-slate-900 outline-none">
          {title}
        </h2>
        <p className="text-sm text-slate-700">{intro}</p>
      </div>
      <Field label="Codice dell'app di autenticazione" id={`${idPrefix}-code`} error={errors.code?.message}>
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
        {isSubmitting ? 'Verifica in corso...' : submitLabel}
      </Button>
      {onBack && (
        <Button variant="ghost" size="sm" disabled={isSubmitting} onClick={onBack} data-testid={`${idPrefix}-back`}>
          {backLabel}
        </Button>
      )}
    </form>
  );
}
