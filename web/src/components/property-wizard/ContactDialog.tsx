import { useEffect, useId } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import * as z from 'zod';
import { contactFields } from '@domain/property/schema';
import { Button, Dialog, Field, Input } from '@/components/ui';
import { useConfig } from '@/lib/config';
import { Checkbox } from './controls';
import type { ContactDraft } from './draft';

/** The contact dialog's schema: the contract's contact fields, Italian messages included. */
const contactSchema = z.object(contactFields);
export type ContactValues = z.input<typeof contactSchema>;
export type ContactOutput = z.output<typeof contactSchema>;


export interface ContactDialogProps {
  open: boolean;
  onClose: () => void;
  /** what was typed before (kept in the draft) */
  initial: ContactDraft;
  /** every keystroke, to keep it in the draft */
  onDraftChange: (contact: ContactDraft) => void;
  onConfirm: (contact: ContactOutput) => void;
  sending: boolean;
  /** server-side errors per contact field, after a refused submission */
  serverErrors?: Partial<Record<keyof ContactDraft, string>>;
}

/**
 * 'I tuoi dati di contatto': first name, last name, email, mobile, privacy consent (the
 * notice opens in a new tab). 'Conferma' stays disabled until all five are given and
 * while sending ('Invio in corso...').
 */
export function ContactDialog({ open, onClose, initial, onDraftChange, onConfirm, sending, serverErrors }: ContactDialogProps) {
  const formId = useId();
  const { privacyUrl } = useConfig();
  const {
    register,
    handleSubmit,
    control,
    setError,
    formState: { errors },
  } = useForm<ContactValues, unknown, ContactOutput>({
    resolver: zodResolver(contactSchema),
    mode: 'onTouched',
    defaultValues: { ...initial, privacyConsent: false as unknown as true },
  });
  const [firstName, lastName, email, phone, consent] = useWatch({ control, name: ['firstName', 'lastName', 'email', 'phone', 'privacyConsent'] });
  const complete = [firstName, lastName, email, phone].every((v) => typeof v === 'string' && v.trim() !== '') && consent === true;

  useEffect(() => {
    onDraftChange({ firstName: firstName ?? '', lastName: lastName ?? '', email: email ?? '', phone: phone ?? '' });
  }, [firstName, lastName, email, phone, onDraftChange]);

  useEffect(() => {
    if (!serverErrors) return;
    for (const [field, message] of Object.entries(serverErrors)) {
      if (message) setError(field as keyof ContactDraft, { type: 'server', message }, { shouldFocus: true });
    }
  }, [serverErrors, setError]);

  return (
    <Dialog
      open={open}
      onClose={() => {
        if (!sending) onClose();
      }}
      title="I tuoi dati di contatto"
      description="Ti contatteremo per la valutazione del tuo immobile."
      footer={
        <>
          <Button variant="outline" onClick={onClose} disabled={sending} data-testid="contact-cancel">
            Annulla
          </Button>
          <Button type="submit" form={formId} disabled={!complete || sending} aria-busy={sending || undefined} data-testid="contact-confirm">
            {sending ? 'Invio in corso...' : 'Conferma'}
          </Button>
        </>
      }
    >
      <form id={formId} noValidate onSubmit={handleSubmit(onConfirm)} className="space-y-4" aria-label="Dati di contatto">
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label="Nome" id="contact-first-name" error={errors.firstName?.message}>
            <Input autoComplete="given-name" data-testid="contact-first-name" {...register('firstName')} />
          </Field>
          <Field label="Cognome" id="contact-last-name" error={errors.lastName?.message}>
            <Input autoComplete="family-name" data-testid="contact-last-name" {...register('lastName')} />
          </Field>
        </div>
        <Field label="Email" id="contact-email" error={errors.email?.message}>
          <Input type="email" inputMode="email" autoComplete="email" placeholder="nome@esempio.it" data-testid="contact-email" {...register('email')} />
        </Field>
        <Field label="Cellulare" id="contact-phone" error={errors.phone?.message}>
          <Input type="tel" inputMode="tel" autoComplete="tel" placeholder="333 123 4567" data-testid="contact-phone" {...register('phone')} />
        </Field>
        <div>
          <Checkbox
            label={
              <>
                Ho letto e accetto l&apos;
                <a href={privacyUrl} target="_blank" rel="noopener noreferrer" className="font-semibold text-brand-navy underline underline-offset-2">
                  informativa sulla privacy
                  <span className="sr-only"> (si apre in una nuova scheda)</span>
                </a>
              </>
            }
            aria-invalid={errors.privacyConsent ? true : undefined}
            aria-describedby={errors.privacyConsent ? 'contact-privacy-error' : undefined}
            data-testid="contact-privacy"
            {...register('privacyConsent')}
          />
          {errors.privacyConsent && (
            <p id="contact-privacy-error" className="text-sm font-medium text-red-700">
              {errors.privacyConsent.message}
            </p>
          )}
        </div>
      </form>
    </Dialog>
  );
}
