import { useLayoutEffect } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import * as z from 'zod';
import { PERCENT_MESSAGES } from '@domain/review/schemas';
import { Button, Dialog, Field, Input } from '@/components/ui';
import type { OptionListItem } from './api';

const percent = (message: string) => z.number({ error: message }).min(0, message).max(100, message);
/** The dialog's values: every field present (the spec's messages). */
const editOptionSchema = z.object({
  agentCommissionPercentage: percent(PERCENT_MESSAGES.agentCommissionPercentage),
  salePricePercentage: percent(PERCENT_MESSAGES.salePricePercentage),
  minAgentCommissionPercentage: percent(PERCENT_MESSAGES.minAgentCommissionPercentage),
});
export type EditOptionValues = z.infer<typeof editOptionSchema>;

/**
 * 'Modifica Opzione di Acquisto': the three percentages (step 0.1, 0..100). The spec's status
 * select is gone: the state moves by the lifecycle's actions on the Istruttoria page.
 */
export function EditOptionDialog({
  option,
  saving,
  onClose,
  onSave,
}: {
  option: OptionListItem | null;
  saving: boolean;
  onClose: () => void;
  onSave: (values: EditOptionValues) => void;
}) {
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors },
  } = useForm<EditOptionValues>({ resolver: zodResolver(editOptionSchema) });
  // filled in the commit that opens the dialog (a layout effect, before the dialog's own effect
  // shows it): no frame shows the fields empty, and nothing typed can come before the saved values
  useLayoutEffect(() => {
    if (option)
      reset({
        agentCommissionPercentage: option.agentCommissionPercentage,
        salePricePercentage: option.salePricePercentage,
        minAgentCommissionPercentage: option.minAgentCommissionPercentage,
      });
  }, [option, reset]);
  const pct = { valueAsNumber: true } as const;

  return (
    <Dialog
      open={option !== null}
      onClose={onClose}
      title="Modifica Opzione di Acquisto"
      description={option ? `${option.propertyAddress}${option.propertyCity ? `, ${option.propertyCity}` : ''}` : undefined}
    >
      <form id="edit-option-form" noValidate onSubmit={handleSubmit(onSave)} className="space-y-4" data-testid="edit-option-form">
        <Field label="Condivisione Agenti (%)" error={errors.agentCommissionPercentage?.message}>
          <Input type="number" step={0.1} min={0} max={100} {...register('agentCommissionPercentage', pct)} data-testid="edit-option-agent" />
        </Field>
        <Field label="Percentuale Prezzo di Vendita (%)" error={errors.salePricePercentage?.message}>
          <Input type="number" step={0.1} min={0} max={100} {...register('salePricePercentage', pct)} data-testid="edit-option-sale" />
        </Field>
        <Field label="Condivisione Minima Agenti (%)" error={errors.minAgentCommissionPercentage?.message}>
          <Input type="number" step={0.1} min={0} max={100} {...register('minAgentCommissionPercentage', pct)} data-testid="edit-option-min-agent" />
        </Field>
        <div className="flex flex-col-reverse gap-2 pt-2 sm:flex-row sm:justify-end">
          <Button variant="outline" onClick={onClose} disabled={saving}>
            Annulla
          </Button>
          <Button type="submit" disabled={saving} aria-busy={saving || undefined} data-testid="edit-option-save">
            {saving ? 'Salvataggio...' : 'Salva'}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
