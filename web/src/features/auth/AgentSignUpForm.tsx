import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { toast } from 'sonner';
import { Button, Field, Input } from '@/components/ui';
import { authErrorMessage, signUpWithEmail } from '@/lib/auth';
import {
  agentSignUpSchema,
  missingCredentials,
  MISSING_FIELDS_TOAST,
  SIGN_UP_DONE_TOAST,
  type AgentSignUpValues,
} from '@/lib/auth-schemas';
import { ConfirmSignUpForm } from '@/components/auth/ConfirmSignUpForm';

/**
 * Self sign-up of a real-estate agent (user type agente_immobiliare), then the e-mailed
 * confirmation code; once confirmed the person goes to the login with the e-mail filled in.
 */
export function AgentSignUpForm({ onSignedUp }: { onSignedUp: (email: string) => void }) {
  const [pendingEmail, setPendingEmail] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    getValues,
    formState: { errors, isSubmitting },
  } = useForm<AgentSignUpValues>({
    resolver: zodResolver(agentSignUpSchema),
    defaultValues: { fullName: '', email: '', password: '' },
  });

  const onValid = async (values: AgentSignUpValues) => {
    toast.dismiss(MISSING_FIELDS_TOAST[1].id);
    try {
      await signUpWithEmail({ ...values, userType: 'agente_immobiliare' });
    } catch (err) {
      toast.error('Errore di registrazione', { description: authErrorMessage(err, 'signUp') });
      return;
    }
    setPendingEmail(values.email.trim());
  };

  const onInvalid = () => {
    if (missingCredentials(getValues())) toast.error(...MISSING_FIELDS_TOAST);
  };

  if (pendingEmail) {
    return (
      <ConfirmSignUpForm
        email={pendingEmail}
        idPrefix="agent-confirm"
        onConfirmed={() => {
          toast.success(...SIGN_UP_DONE_TOAST);
          onSignedUp(pendingEmail);
        }}
        onBack={() => setPendingEmail(null)}
        backLabel="Usa un'altra email"
      />
    );
  }

  return (
    <form noValidate onSubmit={handleSubmit(onValid, onInvalid)} className="space-y-4" aria-label="Registrazione agente immobiliare">
      <p className="text-sm text-slate-700">
        Registrati come agente immobiliare per accedere alle opzioni di acquisto disponibili nella tua zona.
      </p>
      <Field label="Nome completo" optional id="agent-signup-name" error={errors.fullName?.message}>
        <Input autoComplete="name" data-testid="agent-signup-name" {...register('fullName')} />
      </Field>
      <Field label="Email" id="agent-signup-email" error={errors.email?.message}>
        <Input
          type="email"
          autoComplete="email"
          inputMode="email"
          placeholder="nome@agenzia.it"
          data-testid="agent-signup-email"
          {...register('email')}
        />
      </Field>
      <Field label="Password" id="agent-signup-password" hint="Almeno 6 caratteri" error={errors.password?.message}>
        <Input type="password" autoComplete="new-password" data-testid="agent-signup-password" {...register('password')} />
      </Field>
      <Button type="submit" size="lg" className="w-full" loading={isSubmitting} data-testid="agent-signup-submit">
        {isSubmitting ? 'Registrazione in corso...' : 'Registrati come agente'}
      </Button>
    </form>
  );
}
