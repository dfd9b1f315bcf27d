import { useId, type ReactNode } from 'react';
import { Controller, useFormContext, useWatch } from 'react-hook-form';
import {
  CONDITION_OPTIONS,
  ENERGY_CLASS_OPTIONS,
  FEATURE_OPTIONS,
  YES_NO,
  YES_NO_LABELS,
  YES_NO_UNKNOWN,
} from '@domain/property/enums';
import { buildYearOptions, MAX_NOTES_LENGTH, MAX_TEXT_LENGTH } from '@domain/property/limits';
import { Field, Input, Select } from '@/components/ui';
import { AmountInput, Checkbox, Fieldset, RadioPills, Textarea } from '../controls';
import type { WizardValues } from '../form';

const YES_NO_OPTIONS = YES_NO.map((value) => ({ value, label: YES_NO_LABELS[value] }));
const YES_NO_UNKNOWN_OPTIONS = YES_NO_UNKNOWN.map((value) => ({ value, label: YES_NO_LABELS[value] }));

/** The block of fields an answer opens. */
function Dependent({ children, testId }: { children: ReactNode; testId?: string }) {
  return (
    <div className="mt-3 space-y-4 border-l-2 border-brand-orange pl-4" data-testid={testId}>
      {children}
    </div>
  );
}

function Block({ children }: { children: ReactNode }) {
  return <div className="rounded-xl border border-slate-200 bg-slate-50 p-4">{children}</div>;
}

/**
 * Step 3: condominium fees, extraordinary expenses, the 21 accessory features, condition,
 * build year, box and garage, abuses, mortgages, energy certificate, water infiltrations, notes.
 */
export function StepDetails() {
  const ids = useId();
  const {
    register,
    control,
    setValue,
    getValues,
    formState: { errors },
  } = useFormContext<WizardValues>();
  const [expenses, hasBox, hasGarage, abuses, hypothecs, ape, water, notes] = useWatch({
    control,
    name: ['hasExtraordinaryExpenses', 'hasBox', 'hasGarage', 'hasAbuses', 'hasHypothecs', 'hasApe', 'hasWaterInfiltrations', 'notes'],
  });
  const years = buildYearOptions();

  /** Checking box/garage proposes 1; unchecking clears the count (spec 000 section 4). */
  const countToggle = (flag: 'hasBox' | 'hasGarage', count: 'numBox' | 'numGarage') =>
    register(flag, {
      onChange: (e) => {
        const on = Boolean((e.target as HTMLInputElement).checked);
        setValue(count, on ? getValues(count) || '1' : '', { shouldValidate: false });
      },
    });

  return (
    <div className="space-y-6">
      <Controller
        control={control}
        name="condominiumFees"
        render={({ field, fieldState }) => (
          <Field label="Spese condominiali mensili" id="wizard-condominium-fees" error={fieldState.error?.message} optional>
            <AmountInput ref={field.ref} name={field.name} value={field.value} onChange={field.onChange} onBlur={field.onBlur} placeholder="150" data-testid="wizard-condominium-fees" />
          </Field>
        )}
      />

      <Block>
        <RadioPills
          legend="Ci sono spese straordinarie già deliberate?"
          options={YES_NO_OPTIONS}
          error={errors.hasExtraordinaryExpenses?.message}
          inputProps={register('hasExtraordinaryExpenses')}
          testId="wizard-extraordinary"
        />
        {expenses === 'si' && (
          <Dependent testId="wizard-extraordinary-fields">
            <Field label="Descrizione delle spese" id="wizard-extraordinary-details" error={errors.extraordinaryExpensesDetails?.message}>
              <Textarea maxLength={MAX_TEXT_LENGTH} rows={2} placeholder="Es. rifacimento della facciata" data-testid="wizard-extraordinary-details" {...register('extraordinaryExpensesDetails')} />
            </Field>
            <Controller
              control={control}
              name="extraordinaryExpensesAmount"
              render={({ field, fieldState }) => (
                <Field label="Importo delle spese" id="wizard-extraordinary-amount" error={fieldState.error?.message}>
                  <AmountInput ref={field.ref} name={field.name} value={field.value} onChange={field.onChange} onBlur={field.onBlur} data-testid="wizard-extraordinary-amount" />
                </Field>
              )}
            />
          </Dependent>
        )}
      </Block>

      <Fieldset legend="Caratteristiche accessorie" errorId={`${ids}-features-error`} error={errors.features?.message} hint="Seleziona tutte quelle presenti">
        <div className="grid grid-cols-2 gap-x-3 lg:grid-cols-3" data-testid="wizard-features">
          {FEATURE_OPTIONS.map((o) => (
            <Checkbox key={o.value} label={o.label} value={o.value} data-testid={`wizard-feature-${o.value}`} {...register('features')} />
          ))}
        </div>
      </Fieldset>

      <div className="grid gap-5 sm:grid-cols-2">
        <Field label="Stato dell'immobile" id="wizard-condition" error={errors.condition?.message}>
          <Select data-testid="wizard-condition" {...register('condition')}>
            <option value="">Seleziona lo stato</option>
            {CONDITION_OPTIONS.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </Select>
        </Field>
        <Field label="Anno di costruzione" id="wizard-build-year" error={errors.buildYear?.message}>
          <Select data-testid="wizard-build-year" {...register('buildYear')}>
            <option value="">Seleziona l&apos;anno</option>
            {years.map((y) => (
              <option key={y} value={String(y)}>
                {y}
              </option>
            ))}
          </Select>
        </Field>
      </div>

      <Block>
        <Fieldset legend="Box e garage" errorId={`${ids}-parking-error`}>
          <div className="grid gap-4 sm:grid-cols-2">
            <div>
              <Checkbox label="Box" data-testid="wizard-has-box" {...countToggle('hasBox', 'numBox')} />
              {hasBox && (
                <Field label="Numero di box" id="wizard-num-box" error={errors.numBox?.message} className="mt-2">
                  <Input inputMode="numeric" autoComplete="off" data-testid="wizard-num-box" {...register('numBox')} />
                </Field>
              )}
            </div>
            <div>
              <Checkbox label="Garage" data-testid="wizard-has-garage" {...countToggle('hasGarage', 'numGarage')} />
              {hasGarage && (
                <Field label="Numero di garage" id="wizard-num-garage" error={errors.numGarage?.message} className="mt-2">
                  <Input inputMode="numeric" autoComplete="off" data-testid="wizard-num-garage" {...register('numGarage')} />
                </Field>
              )}
            </div>
          </div>
        </Fieldset>
      </Block>

      <Block>
        <RadioPills legend="Ci sono abusi edilizi?" options={YES_NO_UNKNOWN_OPTIONS} error={errors.hasAbuses?.message} inputProps={register('hasAbuses')} testId="wizard-abuses" />
        {abuses === 'si' && (
          <Dependent testId="wizard-abuses-fields">
            <Field label="Descrivi gli abusi" id="wizard-abuses-details" error={errors.abusesDetails?.message} optional>
              <Textarea maxLength={MAX_TEXT_LENGTH} rows={2} data-testid="wizard-abuses-details" {...register('abusesDetails')} />
            </Field>
          </Dependent>
        )}
      </Block>

      <Block>
        <RadioPills legend="Ci sono ipoteche sull'immobile?" options={YES_NO_OPTIONS} error={errors.hasHypothecs?.message} inputProps={register('hasHypothecs', {
          onChange: (e) => {
            if ((e.target as HTMLInputElement).value === 'si' && !getValues('numHypothecs')) setValue('numHypothecs', '1');
          },
        })} testId="wizard-hypothecs" />
        {hypothecs === 'si' && (
          <Dependent testId="wizard-hypothecs-fields">
            <Field label="Numero di ipoteche" id="wizard-num-hypothecs" error={errors.numHypothecs?.message}>
              <Input inputMode="numeric" autoComplete="off" data-testid="wizard-num-hypothecs" {...register('numHypothecs')} />
            </Field>
          </Dependent>
        )}
      </Block>

      <Block>
        <RadioPills legend="C'è l'attestato di prestazione energetica (APE)?" options={YES_NO_OPTIONS} error={errors.hasApe?.message} inputProps={register('hasApe')} testId="wizard-ape" />
        {ape === 'si' && (
          <Dependent testId="wizard-ape-fields">
            <Field label="Classe energetica" id="wizard-ape-class" error={errors.apeClass?.message}>
              <Select data-testid="wizard-ape-class" {...register('apeClass')}>
                <option value="">Seleziona la classe</option>
                {ENERGY_CLASS_OPTIONS.map((o) => (
                  <option key={o.value} value={o.value}>
                    {o.label}
                  </option>
                ))}
              </Select>
            </Field>
          </Dependent>
        )}
      </Block>

      <Block>
        <RadioPills legend="Ci sono infiltrazioni d'acqua o muffa?" options={YES_NO_OPTIONS} error={errors.hasWaterInfiltrations?.message} inputProps={register('hasWaterInfiltrations')} testId="wizard-water" />
        {water === 'si' && (
          <Dependent testId="wizard-water-fields">
            <Field label="Dove e di che tipo" id="wizard-water-details" error={errors.waterInfiltrationsDetails?.message} optional>
              <Textarea maxLength={MAX_TEXT_LENGTH} rows={2} data-testid="wizard-water-details" {...register('waterInfiltrationsDetails')} />
            </Field>
          </Dependent>
        )}
      </Block>

      <Field
        label="Note"
        id="wizard-notes"
        optional
        error={errors.notes?.message}
        hint={`${(notes ?? '').length} di ${MAX_NOTES_LENGTH} caratteri`}
      >
        <Textarea maxLength={MAX_NOTES_LENGTH} rows={4} placeholder="Altre informazioni utili sull'immobile" data-testid="wizard-notes" {...register('notes')} />
      </Field>
    </div>
  );
}
