import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { toast } from 'sonner';
import { Button, Field, Input } from '@/components/ui';
import { adminPasswordProblem } from '@domain/admin-security';
import { authErrorMessage, confirmTotpCode, currentGroups, signInWithEmail, type SignInOutcome } from '@/lib/auth';
import { loginSchema, missingCredentials, MISSING_FIELDS_TOAST, type LoginValues } from '@/lib/auth-schemas';
import { usePostSignIn } from '@/lib/use-post-sign-in';
import { AdminPasswordForm } from './AdminPasswordForm';
import { ConfirmSignUpForm } from './ConfirmSignUpForm';
import { TotpCodeForm } from './TotpCodeForm';
import type { SignInOrigin } from '@/lib/post-sign-in';

export interface LoginFormProps {
  origin: SignInOrigin;
  token?: string | null;
  /** prefix of input ids and data-testids, e.g. "login" or "seller-login" */
  idPrefix?: string;
  defaultEmail?: string;
}

/** Where a sign-in stands after the e-mail and password. */
type Step =
  | { kind: 'credentials' }
  /** the account's e-mail was never confirmed: the code first */
  | { kind: 'confirmSignUp'; creds: LoginValues }
  /** the account has an authenticator app: its code */
  | { kind: 'totp'; creds: LoginValues }
  /** an admin whose password is weaker than the admin rule: a new one */
  | { kind: 'adminPassword'; creds: LoginValues };

/**
 * E-mail and password, then what the account needs: the e-mailed confirmation code (never
 * confirmed), the authenticator app's code (TOTP MFA), a stronger password (an admin).
 */
export function LoginForm({ origin, token, idPrefix = 'login', defaultEmail = '' }: LoginFormProps) {
  const postSignIn = usePostSignIn();
  const [step, setStep] = useState<Step>({ kind: 'credentials' });
  const {
    register,
    handleSubmit,
    getValues,
    formState: { errors, isSubmitting },
  } = useForm<LoginValues>({ resolver: zodResolver(loginSchema), defaultValues: { email: defaultEmail, password: '' } });

  const complete = async () => {
    toast.success('Login effettuato!', { description: 'Benvenuto' });
    await postSignIn({ origin, token });
  };

  const afterStep = async (outcome: SignInOutcome, creds: LoginValues) => {
    if (outcome === 'confirmSignUp') return setStep({ kind: 'confirmSignUp', creds });
    if (outcome === 'totpCode') return setStep({ kind: 'totp', creds });
    if ((await currentGroups()).includes('admin') && adminPasswordProblem(creds.password)) {
      return setStep({ kind: 'adminPassword', creds });
    }
    await complete();
  };

  const onValid = async (values: LoginValues) => {
    toast.dismiss(MISSING_FIELDS_TOAST[1].id);
    const creds = { email: values.email.trim(), password: values.password };
    let outcome: SignInOutcome;
    try {
      outcome = await signInWithEmail(creds.email, creds.password);
    } catch (err) {
      toast.error('Errore di login', { description: authErrorMessage(err) });
      return;
    }
    await afterStep(outcome, creds);
  };

  const back = () => setStep({ kind: 'credentials' });

  if (step.kind === 'confirmSignUp') {
    const { creds } = step;
    return (
      <ConfirmSignUpForm
        email={creds.email}
        fromLogin
        idPrefix={`${idPrefix}-confirm`}
        onConfirmed={async () => {
          toast.success('Email confermata!', { description: 'Accesso in corso...' });
          let outcome: SignInOutcome;
          try {
            outcome = await signInWithEmail(creds.email, creds.password);
          } catch (err) {
            back();
            toast.error('Errore di login', { description: authErrorMessage(err) });
            return;
          }
          await afterStep(outcome, creds);
        }}
        onBack={back}
        backLabel="Torna al login"
      />
    );
  }

  if (step.kind === 'totp') {
    const { creds } = step;
    return (
      <TotpCodeForm
        idPrefix={`${idPrefix}-totp`}
        title="Verifica in due passaggi"
        intro="Apri la tua app di autenticazione e inserisci il codice di 6 cifre per Opzione Casa."
        submitLabel="Verifica e accedi"
        onCode={async (code) => {
          await afterStep(await confirmTotpCode(code), creds);
        }}
        onBack={back}
        backLabel="Torna al login"
      />
    );
  }

  if (step.kind === 'adminPassword') {
    return <AdminPasswordForm currentPassword={step.creds.password} onChanged={complete} />;
  }

  const onInvalid = () => {
    if (missingCredentials(getValues())) toast.error(...MISSING_FIELDS_TOAST);
  };

  return (
    <form noValidate onSubmit={handleSubmit(onValid, onInvalid)} className="space-y-4" aria-label="Accesso">
      <Field label="Email" id={`${idPrefix}-email`} error={errors.email?.message}>
        <Input
          type="email"
          autoComplete="email"
          inputMode="email"
          placeholder="nome@esempio.it"
          data-testid={`${idPrefix}-email`}
          {...register('email')}
        />
      </Field>
      <Field label="Password" id={`${idPrefix}-password`} error={errors.password?.message}>
        <Input type="password" autoComplete="current-password" data-testid={`${idPrefix}-password`} {...register('password')} />
      </Field>
      <Button type="submit" size="lg" className="w-full" loading={isSubmitting} data-testid={`${idPrefix}-submit`}>
        {isSubmitting ? 'Accesso in corso...' : 'Accedi'}
      </Button>
    </form>
  );
}
