import { useEffect, useRef, type ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Field, Input } from '@/components/ui';
import type { confirmCodeSchema, ConfirmCodeInput, ConfirmCodeValues } from '@/lib/auth-schemas';

export interface CodeFormProps {
  /** the code's rule and its "missing" message (e-mail confirmation or authenticator app) */
  schema: typeof confirmCodeSchema;
  /** prefix of input ids and data-testids */
  idPrefix: string;
  title: string;
  intro: ReactNode;
  label: string;
  hint?: string;
  submitLabel: string;
  pendingLabel: string;
  /** checks the code: resolves to the Italian message when it is refused, to nothing when accepted */
  onCode: (code: string) => Promise<string | undefined>;
  /** the actions under the submit button (they get whether a code is being checked) */
  actions?: (submitting: boolean) => ReactNode;
}

/**
 * A 6-digit code form (the e-mail confirmation of a sign-up, an authenticator app's code):
 * the heading takes the focus when it appears, the error stays on the field.
 */
export function CodeForm({ schema, idPrefix, title, intro, label, hint, submitLabel, pendingLabel, onCode, actions }: CodeFormProps) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<ConfirmCodeInput, unknown, ConfirmCodeValues>({ resolver: zodResolver(schema), defaultValues: { code: '' } });

  useEffect(() => {
    headingRef.current?.focus();
  }, []);

  const onValid = async ({ code }: ConfirmCodeValues) => {
    const refused = await onCode(code);
    if (refused) setError('code', { message: refused });
  };

  return (
    <form noValidate onSubmit={handleSubmit(onValid)} className="space-y-4" aria-labelledby={`${idPrefix}-title`} data-testid={`${idPrefix}-form`}>
      <div className="space-y-2">
        <h2 id={`${idPrefix}-title`} ref={headingRef} tabIndex={-1} className="text-lg font-semibold text-slate-900 outline-none">
          {title}
        </h2>
        <p className="text-sm text-slate-700">{intro}</p>
      </div>
      <Field label={label} id={`${idPrefix}-code`} hint={hint} error={errors.code?.message}>
        <Input
          autoComplete="one-time-code"
          inputMode="numeric"
          maxLength={12}
          placeholder="123456"
          aria-required="true"
          data-testid={`${idPrefix}-code`}
          className="text-lg tracking-widest"
          {...register('code')}
        />
      </Field>
      <Button type="submit" size="lg" className="w-full" loading={isSubmitting} data-testid={`${idPrefix}-submit`}>
        {isSubmitting ? pendingLabel : submitLabel}
      </Button>
      {actions?.(isSubmitting)}
    </form>
  );
}
