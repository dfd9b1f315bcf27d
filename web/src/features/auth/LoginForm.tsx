import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { toast } from 'sonner';
import { Button, Field, Input } from '@/components/ui';
import { authErrorMessage, signInWithEmail } from '@/lib/auth';
import { loginSchema, missingCredentials, MISSING_FIELDS_TOAST, type LoginValues } from './schemas';
import { usePostSignIn } from './use-post-sign-in';
import type { SignInOrigin } from './post-sign-in';

export interface LoginFormProps {
  origin: SignInOrigin;
  token?: string | null;
  /** prefix of input ids and data-testids, e.g. "login" or "seller-login" */
  idPrefix?: string;
  defaultEmail?: string;
}

export function LoginForm({ origin, token, idPrefix = 'login', defaultEmail = '' }: LoginFormProps) {
  const postSignIn = usePostSignIn();
  const {
    register,
    handleSubmit,
    getValues,
    formState: { errors, isSubmitting },
  } = useForm<LoginValues>({ resolver: zodResolver(loginSchema), defaultValues: { email: defaultEmail, password: '' } });

  const onValid = async (values: LoginValues) => {
    toast.dismiss(MISSING_FIELDS_TOAST[1].id);
    try {
      await signInWithEmail(values.email, values.password);
    } catch (err) {
      toast.error('Errore di login', { description: authErrorMessage(err) });
      return;
    }
    toast.success('Login effettuato!', { description: 'Benvenuto' });
    await postSignIn({ origin, token });
  };

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
