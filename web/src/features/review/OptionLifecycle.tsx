import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { Ban, CheckCheck, Megaphone, Undo2 } from 'lucide-react';
import * as z from 'zod';
import { adminActionsIn, OPTION_ACTION_LABELS, OPTION_LIFECYCLE_MESSAGES, optionStateOf, type AdminOptionAction } from '@domain/option-lifecycle';
import type { PurchaseOption } from '@domain/requests';
import { Button, Dialog, DialogActions, Field } from '@/components/ui';
import { Textarea } from '@/components/property-wizard/controls';
import { errorMessage } from '@/lib/api';
import { requestKeys, transitionOption } from './api';

const ICONS = { publish: Megaphone, withdraw: Undo2, exercise: CheckCheck, cancel: Ban } as const;

const DONE: Record<AdminOptionAction, string> = {
  publish: "Opzione pubblicata: gli agenti la vedono tra le opzioni disponibili",
  withdraw: "Opzione ritirata: gli agenti non la vedono più",
  exercise: 'Opzione segnata come esercitata',
  cancel: 'Opzione annullata',
};

/** What each action does, said before the admin confirms it. */
const CONFIRM: Record<AdminOptionAction, string> = {
  publish: "L'opzione firmata compare tra le opzioni disponibili degli agenti, che possono richiederla.",
  withdraw: "L'opzione non è più offerta agli agenti; le loro richieste aperte vengono chiuse e ogni agente riceve un'e-mail.",
  exercise: "Registra che l'opzione è stata esercitata (l'acquisto è avvenuto). Non si può tornare indietro.",
  cancel: "L'opzione viene chiusa; le richieste aperte degli agenti vengono chiuse e ogni agente riceve un'e-mail. Non si può tornare indietro.",
};

const reasonSchema = z.object({
  reason: z.string().trim().min(5, OPTION_LIFECYCLE_MESSAGES.reasonRequired).max(500, OPTION_LIFECYCLE_MESSAGES.reasonTooLong),
});

/** The admin's actions on the option's state that the state allows, each confirmed in a dialog (cancel asks a reason). */
export function OptionLifecycleActions({ propertyId, option }: { propertyId: string; option: PurchaseOption }) {
  const queryClient = useQueryClient();
  const [pending, setPending] = useState<AdminOptionAction | null>(null);
  const actions = adminActionsIn(optionStateOf(option));
  const form = useForm<{ reason: string }>({ resolver: zodResolver(reasonSchema), defaultValues: { reason: '' } });
  const mutation = useMutation({
    mutationFn: ({ action, reason }: { action: AdminOptionAction; reason?: string }) => transitionOption(propertyId, { action, ...(reason ? { reason } : {}) }),
    onSuccess: (result, { action }) => {
      setPending(null);
      form.reset({ reason: '' });
      toast.success(DONE[action], result.closedRequests ? { description: `Richieste degli agenti chiuse: ${result.closedRequests}` } : undefined);
    },
    onError: (err) => toast.error("Impossibile cambiare lo stato dell'opzione", { description: errorMessage(err) }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: requestKeys.dossier(propertyId) }),
  });
  if (actions.length === 0) return null;
  const close = () => {
    if (!mutation.isPending) setPending(null);
  };
  return (
    <div className="flex flex-wrap gap-2" data-testid="option-actions">
      {actions.map((action) => {
        const Icon = ICONS[action];
        return (
          <Button
            key={action}
            variant={action === 'cancel' ? 'outline' : action === 'publish' ? 'primary' : 'secondary'}
            onClick={() => setPending(action)}
            data-testid={`option-action-${action}`}
          >
            <Icon aria-hidden="true" className="size-4" />
            {OPTION_ACTION_LABELS[action]}
          </Button>
        );
      })}
      <Dialog open={pending !== null} onClose={close} title={pending ? OPTION_ACTION_LABELS[pending] : ''} description={pending ? CONFIRM[pending] : undefined}>
        <form
          noValidate
          className="space-y-4"
          data-testid="option-action-form"
          onSubmit={
            pending === 'cancel'
              ? form.handleSubmit(({ reason }) => mutation.mutate({ action: 'cancel', reason }))
              : (e) => {
                  e.preventDefault();
                  if (pending) mutation.mutate({ action: pending });
                }
          }
        >
          {pending === 'cancel' && (
            <Field label="Motivo dell'annullamento" error={form.formState.errors.reason?.message}>
              <Textarea
                rows={3}
                maxLength={500}
                {...form.register('reason')}
                data-testid="option-cancel-reason"
              />
            </Field>
          )}
          <DialogActions onBack={close} pending={mutation.isPending} label="Conferma" variant={pending === 'cancel' ? 'danger' : 'primary'} testId="option-action-confirm" />
        </form>
      </Dialog>
    </div>
  );
}
