import { useCallback, useEffect, useMemo, useRef, useState, type RefObject } from 'react';
import { useForm } from 'react-hook-form';
import { loadComuni, type ComuniModule } from '@domain/places';
import { chosenOptionDuration, subscribeOptionDuration } from '@/lib/option-duration-choice';
import { wizardResolver, type WizardValues } from './form';

/**
 * Steps 1-3 as a react-hook-form form validated with the shared schema, up to the step
 * shown (`stepRef`). The comuni list (a chunk of its own) is loaded once a province is
 * chosen; the comune is checked against it.
 */
export function useWizardForm(initialValues: WizardValues, stepRef: RefObject<number>) {
  const [places, setPlaces] = useState<ComuniModule>();
  const placesRef = useRef<ComuniModule | undefined>(undefined);
  const resolver = useMemo(() => wizardResolver(() => ({ places: placesRef.current }), () => stepRef.current), [stepRef]);
  // errors appear when 'Avanti' is pressed (no layout jump under the pointer on blur), then
  // follow each change until fixed
  const form = useForm<WizardValues>({ defaultValues: initialValues, mode: 'onSubmit', reValidateMode: 'onChange', resolver, shouldFocusError: false });
  const { getValues, setValue, clearErrors } = form;

  const ensurePlaces = useCallback(async () => {
    if (placesRef.current) return placesRef.current;
    const m = await loadComuni();
    placesRef.current = m;
    setPlaces(m);
    return m;
  }, []);

  // the duration chosen in the home simulator (this tab) is the wizard's; later choices follow
  useEffect(() => {
    const follow = () => {
      const months = chosenOptionDuration();
      if (months !== null && getValues('optionDuration') !== months) setValue('optionDuration', months, { shouldDirty: true });
    };
    follow();
    return subscribeOptionDuration(follow);
  }, [getValues, setValue]);

  useEffect(() => {
    if (initialValues.province) void ensurePlaces();
  }, [initialValues.province, ensurePlaces]);

  const onProvinceChange = useCallback(
    (code: string) => {
      if (!code) {
        setValue('city', '');
        return;
      }
      // the comune typed before this change; one typed while the list loads is the person's new choice
      const city = getValues('city');
      void ensurePlaces().then((m) => {
        if (city && getValues('city') === city && getValues('province') === code && !m.findComune(code, city)) {
          setValue('city', '');
          clearErrors('city');
        }
      });
    },
    [ensurePlaces, getValues, setValue, clearErrors],
  );

  /** The comuni, once loaded (read at validation time). */
  const currentPlaces = useCallback(() => placesRef.current, []);

  return { form, places, currentPlaces, ensurePlaces, onProvinceChange };
}
