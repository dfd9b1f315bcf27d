import { useLayoutEffect } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { Save } from 'lucide-react';
import {
  COMPANY_FIELD_LABELS,
  COMPANY_FIELDS,
  editableUserTypes,
  TEXT_MAX,
  updateUserInput,
  type UpdateUserForm,
  type UpdateUserInput,
} from '@domain/users';
import { Button, Dialog, Field, Input, Select } from '@/components/ui';
import { errorMessage, isApiError } from '@/lib/api';
import { USER_TYPE_LABELS } from '@/lib/labels';
import { updateUser, userKeys, type UserListItem } from './api';

const FORM_ID = 'edit-user-form';

function defaultsOf(user: UserListItem): UpdateUserForm {
  return {
    fullName: user.fullName ?? '',
    email: user.email ?? '',
    userType: user.userType,
    companyName: user.companyName ?? '',
    companyVat: user.companyVat ?? '',
    companyRea: user.companyRea ?? '',
    companyAddress: user.companyAddress ?? '',
    companyCity: user.companyCity ?? '',
    companyProvince: user.companyProvince ?? '',
  };
}

/** Edit user (spec section 5): name required, valid e-mail, user type, optional company fields (empty saved as null). */
export function EditUserDialog({ user, onClose }: { user: UserListItem | null; onClose: () => void }) {
  const queryClient = useQueryClient();
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors },
  } = useForm<UpdateUserForm, unknown, UpdateUserInput>({ resolver: zodResolver(updateUserInput), defaultValues: user ? defaultsOf(user) : undefined });

  // filled in the commit that opens the dialog, before it shows (as EditOptionDialog)
  useLayoutEffect(() => {
    if (user) reset(defaultsOf(user));
  }, [user, reset]);

  const save = useMutation({
    mutationFn: (values: UpdateUserInput) => updateUser(user!.id, values),
    onSuccess: (updated) => {
      toast.success('Utente aggiornato', { description: updated.fullName || updated.email });
      onClose();
    },
    onError: (err) => {
      if (isApiError(err, 400) && err.fields) {
        for (const [name, message] of Object.entries(err.fields)) {
          if (name in (user ? defaultsOf(user) : {})) setError(name as keyof UpdateUserForm, { message });
        }
      }
      if (isApiError(err, 409)) setError('email', { message: err.message });
      toast.error("Impossibile aggiornare l'utente", { description: isApiError(err) ? err.message : errorMessage(err) });
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: userKeys.all }),
  });

  const close = () => {
    if (!save.isPending) onClose();
  };

  return (
    <Dialog
      open={user !== null}
      onClose={close}
      title="Modifica utente"
      description="I campi aziendali sono facoltativi: lasciali vuoti se non servono."
      className="max-w-2xl"
      footer={
        <>
          <Button variant="outline" onClick={close} data-testid="user-edit-cancel">
            Annulla
          </Button>
          <Button type="submit" form={FORM_ID} loading={save.isPending} data-testid="user-edit-save">
            {!save.isPending && <Save aria-hidden="true" className="size-4" />}
            Salva
          </Button>
        </>
      }
    >
      {user && (
        <form id={FORM_ID} noValidate onSubmit={handleSubmit((values) => save.mutate(values))} className="grid gap-4 sm:grid-cols-2" aria-label="Modifica utente">
          <Field label="Nome completo" error={errors.fullName?.message} className="sm:col-span-2">
            <Input {...register('fullName')} autoComplete="off" maxLength={TEXT_MAX} data-testid="user-edit-name" />
          </Field>
          <Field label="Email" error={errors.email?.message}>
            <Input {...register('email')} type="email" autoComplete="off" data-testid="user-edit-email" />
          </Field>
          <Field label="Tipo utente" error={errors.userType?.message}>
            <Select {...register('userType')} data-testid="user-edit-type">
              {editableUserTypes(user.userType).map((t) => (
                <option key={t} value={t}>
                  {USER_TYPE_LABELS[t]}
                </option>
              ))}
            </Select>
          </Field>
          <fieldset className="grid gap-4 sm:col-span-2 sm:grid-cols-2">
            <legend className="mb-2 text-sm font-semibold text-slate-800">Dati aziendali</legend>
            {COMPANY_FIELDS.map((f) => (
              <Field key={f} label={COMPANY_FIELD_LABELS[f]} optional error={errors[f]?.message}>
                <Input {...register(f)} autoComplete="off" maxLength={TEXT_MAX} data-testid={`user-edit-${f}`} />
              </Field>
            ))}
          </fieldset>
        </form>
      )}
    </Dialog>
  );
}
