import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { Save, Trash2, UserRoundX } from 'lucide-react';
import { FULL_NAME_MAX, updateOwnProfileInput, type UpdateOwnProfileInput } from '@domain/seller';
import { Button, ButtonLink, Card, CardContent, CardHeader, EmptyState, ErrorState, Field, Input, LoadingState } from '@/components/ui';
import { errorMessage, isApiError } from '@/lib/api';
import { meKey, useMe, useSignOut, type Me } from '@/lib/auth';
import { usePageTitle } from '@/lib/use-page-title';
import { deleteOwnAccount, getErasurePlan, updateOwnProfile } from './api';
import { DeleteAccountDialog } from './DeleteAccountDialog';

export const PROFILE_LOAD_ERROR = 'Impossibile caricare il profilo';
export const PROFILE_SAVE_ERROR = 'Impossibile aggiornare il profilo';
export const ACCOUNT_DELETE_ERROR = "Impossibile eliminare l'account. Contatta l'assistenza.";

/** /seller-profile (sellers only, see the route guard): e-mail, editable name, account deletion. */
export default function SellerProfilePage() {
  usePageTitle('Il mio profilo');
  const me = useMe();

  let body;
  if (me.isPending) body = <LoadingState label="Caricamento del profilo..." className="min-h-48" />;
  else if (isApiError(me.error, 404) || (!me.isError && !me.data))
    body = (
      <Card>
        <EmptyState icon={UserRoundX} title="Profilo non trovato" testId="seller-profile-missing">
          <ButtonLink to="/" variant="outline" className="mt-2">
            Torna alla Home
          </ButtonLink>
        </EmptyState>
      </Card>
    );
  else if (me.isError)
    body = (
      <Card>
        <ErrorState title={PROFILE_LOAD_ERROR} error={me.error} onRetry={() => void me.refetch()} testId="seller-profile-error" />
      </Card>
    );
  else body = <ProfileContent me={me.data} />;

  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-bold sm:text-3xl">Il mio profilo</h1>
        <p className="mt-2 text-slate-700">I tuoi dati di accesso e il nome con cui ti contattiamo.</p>
      </div>
      {body}
    </div>
  );
}

function ProfileContent({ me }: { me: Me }) {
  const queryClient = useQueryClient();
  const signOut = useSignOut();
  const [confirming, setConfirming] = useState(false);
  // what the deletion would erase and keep, read when the dialog opens (never cached: it changes with the options)
  const plan = useQuery({ queryKey: ['seller', 'erasure'], queryFn: ({ signal }) => getErasurePlan(signal), enabled: confirming, staleTime: 0, gcTime: 0 });
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isDirty },
  } = useForm<UpdateOwnProfileInput>({ resolver: zodResolver(updateOwnProfileInput), defaultValues: { fullName: me.fullName ?? '' } });

  const save = useMutation({
    mutationFn: (values: UpdateOwnProfileInput) => updateOwnProfile(values.fullName),
    onSuccess: (profile) => {
      queryClient.setQueryData<Me>(meKey, (old) => (old ? { ...old, fullName: profile.fullName } : old));
      reset({ fullName: profile.fullName });
      toast.success('Profilo aggiornato');
    },
    onError: (err) => {
      const fieldError = isApiError(err, 400) ? err.fields?.fullName : undefined;
      if (fieldError) setError('fullName', { message: fieldError });
      toast.error(PROFILE_SAVE_ERROR, { description: errorMessage(err) });
    },
  });

  const remove = useMutation({
    mutationFn: deleteOwnAccount,
    onSuccess: async () => {
      setConfirming(false);
      toast.success('Account eliminato', {
        description: plan.data?.case === 'contract' ? 'Abbiamo conservato solo i dati necessari al contratto. A presto!' : 'I tuoi dati sono stati cancellati. A presto!',
      });
      // the login no longer exists: end the local session and go home
      await signOut({ to: '/' }).catch(() => undefined);
    },
    onError: (err) => {
      toast.error(ACCOUNT_DELETE_ERROR, { description: errorMessage(err) });
    },
  });

  return (
    <>
      <Card>
        <CardHeader>
          <h2 className="text-lg font-bold text-brand-navy">Dati personali</h2>
        </CardHeader>
        <CardContent>
          <form noValidate onSubmit={handleSubmit((values) => save.mutate(values))} className="space-y-4" aria-label="Dati personali">
            <Field label="Email" hint="L'indirizzo e-mail non si può modificare.">
              <Input type="email" value={me.email} readOnly className="bg-slate-50 text-slate-700" data-testid="seller-profile-email" />
            </Field>
            <Field label="Nome completo" error={errors.fullName?.message}>
              <Input autoComplete="name" aria-required="true" maxLength={FULL_NAME_MAX} data-testid="seller-profile-name" {...register('fullName')} />
            </Field>
            <Button type="submit" loading={save.isPending} disabled={!isDirty} data-testid="seller-profile-save">
              {!save.isPending && <Save aria-hidden="true" className="size-4" />}
              {save.isPending ? 'Salvataggio...' : 'Salva modifiche'}
            </Button>
          </form>
        </CardContent>
      </Card>

      <Card className="border-red-200">
        <CardHeader>
          <h2 className="text-lg font-bold text-red-800">Zona pericolosa</h2>
        </CardHeader>
        <CardContent className="flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between">
          <p className="text-sm text-slate-700">
            Elimina il tuo account con gli immobili, le verifiche d&apos;identità, i comproprietari, le deleghe e i documenti. Se hai un&apos;opzione di
            acquisto firmata o affidata a un agente, conserviamo solo i dati necessari al contratto. L&apos;operazione è definitiva.
          </p>
          <Button variant="danger" className="shrink-0" onClick={() => setConfirming(true)} data-testid="seller-delete-open">
            <Trash2 aria-hidden="true" className="size-4" />
            Elimina account
          </Button>
        </CardContent>
      </Card>

      <DeleteAccountDialog
        open={confirming}
        deleting={remove.isPending}
        plan={plan.data}
        planError={plan.error}
        onRetryPlan={() => void plan.refetch()}
        onClose={() => setConfirming(false)}
        onConfirm={() => remove.mutate()}
      />
    </>
  );
}
