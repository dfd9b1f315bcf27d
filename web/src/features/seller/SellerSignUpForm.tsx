import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { toast } from 'sonner';
import { Button, Field, Input } from '@/components/ui';
import { authErrorMessage, signUpWithEmail } from '@/lib/auth';
import { normalizePhone } from '@domain/phone';
import { ConfirmSignUpForm } from '@/components/auth/ConfirmSignUpForm';
import { SIGN_UP_DONE_TOAST, sellerSignUpSchema, type SellerSignUpValues } from '@/lib/auth-schemas';

/**
 * Seller sign-up (user type venditore): full name required, phone optional; then the
 * e-mailed confirmation code, and the login with the e-mail filled in. A co-owner's link
 * brings the invited address: it is filled in, and another one is refused here already
 * (the server accepts the co-owner only with that address).
 */
export function SellerSignUpForm({ onSignedUp, invitedEmail }: { onSignedUp: (email: string) => void; invitedEmail?: string }) {
  const [pendingEmail, setPendingEmail] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<SellerSignUpValues>({
    resolver: zodResolver(sellerSignUpSchema),
    defaultValues: { fullName: '', email: invitedEmail ?? '', password: '', phone: '' },
    mode: 'onTouched',
  });

  const onValid = async (values: SellerSignUpValues) => {
    if (invitedEmail && values.email.trim().toLowerCase() !== invitedEmail.toLowerCase()) {
      setError('email', { message: `Usa l'indirizzo a cui è arrivato l'invito: ${invitedEmail}` }, { shouldFocus: true });
      return;
    }
    try {
      await signUpWithEmail({
        email: values.email,
        password: values.password,
        fullName: values.fullName,
        phone: normalizePhone(values.phone),
        userType: 'venditore',
      });
    } catch (err) {
      toast.error('Errore di registrazione', { description: authErrorMessage(err, 'signUp') });
      return;
    }
    setPendingEmail(values.email.trim());
  };

  if (pendingEmail) {
    return (
      <ConfirmSignUpForm
        email={pendingEmail}
        idPrefix="seller-confirm"
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
    <form noValidate onSubmit={handleSubmit(onValid)} className="space-y-4" aria-label="Registrazione venditore">
      <Field label="Nome completo" id="seller-signup-name" error={errors.fullName?.message}>
        <Input autoComplete="name" aria-required="true" data-testid="seller-signup-name" {...register('fullName')} />
      </Field>
      <Field
        label="Email"
        id="seller-signup-email"
        hint={invitedEmail ? "L'indirizzo a cui è arrivato l'invito: solo con questo puoi accettarlo" : undefined}
        error={errors.email?.message}
      >
        <Input
          type="email"
          autoComplete="email"
          inputMode="email"
          aria-required="true"
          placeholder="nome@esempio.it"
          data-testid="seller-signup-email"
          {...register('email')}
        />
      </Field>
      <Field label="Password" id="seller-signup-password" hint="Almeno 6 caratteri" error={errors.password?.message}>
        <Input
          type="password"
          autoComplete="new-password"
          aria-required="true"
          data-testid="seller-signup-password"
          {...register('password')}
        />
      </Field>
      <Field label="Telefono" optional id="seller-signup-phone" hint="Es. 333 123 4567" error={errors.phone?.message}>
        <Input type="tel" autoComplete="tel" inputMode="tel" data-testid="seller-signup-phone" {...register('phone')} />
      </Field>
      <Button type="submit" size="lg" className="w-full" loading={isSubmitting} data-testid="seller-signup-submit">
        {isSubmitting ? 'Registrazione in corso...' : 'Registrati'}
      </Button>
    </form>
  );
}
