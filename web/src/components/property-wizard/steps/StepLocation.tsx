import { Controller, useFormContext, useWatch } from 'react-hook-form';
import { provinces } from '@domain/places/provinces';
import type { ComuniModule } from '@domain/places';
import { OMI_CATEGORY_OPTIONS, PROPERTY_TYPE_OPTIONS } from '@domain/property/enums';
import { Field, Input, Select } from '@/components/ui';
import { ComuneCombobox } from '@/components/ComuneCombobox';
import type { WizardValues } from '../form';

const PROVINCES = provinces();

export interface StepLocationProps {
  /** the comuni module once loaded */
  places: ComuniModule | undefined;
  /** the province changed: the wizard loads the comuni and clears a comune of another province */
  onProvinceChange: (code: string) => void;
}

/** Step 1: address, province, comune, OMI category, property type. */
export function StepLocation({ places, onProvinceChange }: StepLocationProps) {
  const {
    register,
    control,
    formState: { errors },
  } = useFormContext<WizardValues>();
  const province = useWatch({ control, name: 'province' });
  const comuni = province && places ? places.comuniOf(province) : undefined;

  return (
    <div className="space-y-5">
      <Field label="Indirizzo" id="wizard-address" error={errors.address?.message} hint="Via o piazza e numero civico">
        <Input
          autoComplete="street-address"
          placeholder="Via Roma 1"
          data-testid="wizard-address"
          aria-required="true"
          {...register('address')}
        />
      </Field>
      <div className="grid gap-5 sm:grid-cols-2">
        <Field label="Provincia" id="wizard-province" error={errors.province?.message}>
          <Select data-testid="wizard-province" {...register('province', { onChange: (e) => onProvinceChange(String(e.target.value)) })}>
            <option value="">Seleziona la provincia</option>
            {PROVINCES.map((p) => (
              <option key={p.code} value={p.code}>
                {p.name} ({p.code})
              </option>
            ))}
          </Select>
        </Field>
        <Controller
          control={control}
          name="city"
          render={({ field, fieldState }) => (
            <Field
              label="Comune"
              id="wizard-city"
              error={fieldState.error?.message}
              hint={!province ? 'Scegli prima la provincia' : !comuni ? 'Caricamento dei comuni...' : undefined}
            >
              <ComuneCombobox
                ref={field.ref}
                name={field.name}
                value={field.value}
                onChange={field.onChange}
                onBlur={field.onBlur}
                comuni={comuni}
                disabled={!province}
                placeholder={province ? 'Cerca il comune' : undefined}
                data-testid="wizard-city"
              />
            </Field>
          )}
        />
      </div>
      <div className="grid gap-5 sm:grid-cols-2">
        <Field label="Categoria OMI" id="wizard-omi-category" error={errors.omiCategory?.message} hint="La categoria catastale usata per la stima">
          <Select data-testid="wizard-omi-category" {...register('omiCategory')}>
            {OMI_CATEGORY_OPTIONS.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </Select>
        </Field>
        <Field label="Tipologia di immobile" id="wizard-property-type" error={errors.propertyType?.message}>
          <Select data-testid="wizard-property-type" {...register('propertyType')}>
            <option value="">Seleziona la tipologia</option>
            {PROPERTY_TYPE_OPTIONS.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </Select>
        </Field>
      </div>
    </div>
  );
}
