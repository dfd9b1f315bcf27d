import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { ADMIN_PASSWORD_RULE } from '@domain/admin-security';
import { Button, Field, Input } from '@/components/ui';
import { authErrorMessage, changePassword } from '@/lib/auth';
import { adminPasswordSchema, type AdminPasswordValues } from '@/lib/auth-schemas';

/**
 * An admin signed in with a password weaker than the admin rule: a new one is chosen before
 * going on (Cognito's pool policy is the specification's 6 characters for everybody).
 */
export function AdminPasswordForm({ currentPassword, onChanged }: { currentPassword: string; onChanged: () => Promise<void> | void }) {
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<AdminPasswordValues>({ resolver: zodResolver(adminPasswordSchema), defaultValues: { password: '', confirm: '' } });

  const onValid = async (values: AdminPasswordValues) => {
    if (values.password === currentPassword) {
      setError('password', { message: 'Scegli una password diversa da quella attuale' });
      return;
    }
    try {
      await changePassword(currentPassword, values.password);
    } catch (err) {
      setError('password', { message: authErrorMessage(err, 'signUp') });
      return;
    }
    await onChanged();
  };

  return (
    <form noValidate onSubmit={handleSubmit(onValid)} className="space-y-4" aria-labelledby="admin-password-title" data-testid="admin-password-form">
      <div className="space-y-2">
        <h2 id="admin-password-title" className="text-lg font-semibold text-slate-900">
          Scegli una password più sicura
        </h2>
        <p className="text-sm text-slate-700">
          Gli account amministratore richiedono una password robusta. Prima di continuare impostane una nuova.
        </p>
      </div>
      <Field label="Nuova password" id="admin-password-new" hint={ADMIN_PASSWORD_RULE} error={errors.password?.message}>
        <Input type="password" autoComplete="new-password" aria-required="true" data-testid="admin-password-new" {...register('password')} />
      </Field>
      <Field label="Ripeti la nuova password" id="admin-password-confirm" error={errors.confirm?.message}>
        <Input type="password" autoComplete="new-password" aria-required="true" data-testid="admin-password-confirm" {...register('confirm')} />
      </Field>
      <Button type="submit" size="lg" className="w-full" loading={isSubmitting} data-testid="admin-password-submit">
        {isSubmitting ? 'Salvataggio...' : 'Salva e continua'}
      </Button>
    </form>
  );
}
