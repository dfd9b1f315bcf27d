import { Controller, useFormContext, useWatch } from 'react-hook-form';
import { FEE_RATE_PER_100K, OPTION_DURATIONS, toOptionDuration } from '@domain/fees';
import { formatEuro } from '@domain/format';
import { FLOOR_OPTIONS } from '@domain/property/enums';
import { chooseOptionDuration } from '@/lib/option-duration-choice';
import { Field, Input, Select } from '@/components/ui';
import { AmountInput, Switch, UnitInput } from '../controls';
import type { WizardValues } from '../form';

/** Step 2: desired amount, option duration, surface, rooms, bathrooms, floor, terrace toggle with count and surface. */
export function StepBasics() {
  const {
    register,
    control,
    formState: { errors },
  } = useFormContext<WizardValues>();
  const hasTerrace = useWatch({ control, name: 'hasTerrace' });

  return (
    <div className="space-y-5">
      <Controller
        control={control}
        name="desiredAmount"
        render={({ field, fieldState }) => (
          <Field label="Importo desiderato" id="wizard-desired-amount" error={fieldState.error?.message} hint="Il prezzo a cui vorresti vendere, in euro interi">
            <AmountInput
              ref={field.ref}
              name={field.name}
              value={field.value}
              onChange={field.onChange}
              onBlur={field.onBlur}
              placeholder="250.000"
              data-testid="wizard-desired-amount"
            />
          </Field>
        )}
      />
      <Field
        label="Durata dell'opzione"
        id="wizard-option-duration"
        error={errors.optionDuration?.message}
        hint="Quella scelta nel simulatore; potrai confermarla con noi prima della firma"
      >
        <Select
          data-testid="wizard-option-duration"
          {...register('optionDuration', {
            valueAsNumber: true,
            onChange: (e: { target: { value: string } }) => {
              const months = toOptionDuration(e.target.value);
              if (months !== null) chooseOptionDuration(months);
            },
          })}
        >
          {OPTION_DURATIONS.map((m) => (
            <option key={m} value={m}>
              {m} mesi ({formatEuro(FEE_RATE_PER_100K[m])} ogni {formatEuro(100_000)})
            </option>
          ))}
        </Select>
      </Field>
      <div className="grid gap-5 sm:grid-cols-2">
        <Field label="Superficie" id="wizard-surface-area" error={errors.surfaceArea?.message} hint="Superficie commerciale in m²">
          <UnitInput unit="m²" inputMode="decimal" placeholder="85" data-testid="wizard-surface-area" {...register('surfaceArea')} />
        </Field>
        <Field label="Piano" id="wizard-floor" error={errors.floor?.message}>
          <Select data-testid="wizard-floor" {...register('floor')}>
            <option value="">Seleziona il piano</option>
            {FLOOR_OPTIONS.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </Select>
        </Field>
        <Field label="Numero di locali" id="wizard-num-rooms" error={errors.numRooms?.message}>
          <Input inputMode="numeric" autoComplete="off" placeholder="3" data-testid="wizard-num-rooms" {...register('numRooms')} />
        </Field>
        <Field label="Numero di bagni" id="wizard-num-bathrooms" error={errors.numBathrooms?.message}>
          <Input inputMode="numeric" autoComplete="off" placeholder="1" data-testid="wizard-num-bathrooms" {...register('numBathrooms')} />
        </Field>
      </div>

      <div className="rounded-xl border border-slate-200 bg-slate-50 p-4">
        <Switch label="Terrazzo" data-testid="wizard-has-terrace" {...register('hasTerrace')} />
        {hasTerrace && (
          <div className="mt-3 grid gap-5 border-l-2 border-brand-orange pl-4 sm:grid-cols-2" data-testid="wizard-terrace-fields">
            <Field label="Numero di terrazzi" id="wizard-num-terraces" error={errors.numTerraces?.message}>
              <Input inputMode="numeric" autoComplete="off" placeholder="1" data-testid="wizard-num-terraces" {...register('numTerraces')} />
            </Field>
            <Field label="Superficie totale dei terrazzi" id="wizard-terrace-surface" error={errors.terraceSurfaceArea?.message}>
              <UnitInput unit="m²" inputMode="decimal" placeholder="12" data-testid="wizard-terrace-surface" {...register('terraceSurfaceArea')} />
            </Field>
          </div>
        )}
      </div>
    </div>
  );
}
