import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { Calculator } from 'lucide-react';
import * as z from 'zod';
import { formatDateTime, formatEuro, formatNumber } from '@domain/format';
import { FEATURE_LABELS, labelOf } from '@domain/property/enums';
import type { DossierValuation, RequestDossier } from '@domain/requests';
import { defaultCorrectionFlags, DEFAULT_CORRECTIONS, REVIEW_MESSAGES, TERRACE_BONUS } from '@domain/review/rules';
import { createValuationSchema } from '@domain/review/schemas';
import type { ValuationAvailable } from '@domain/valuation';
import { PriceTrend } from '@/components/price-trend/PriceTrend';
import { Button, Field, Input, Select } from '@/components/ui';
import { errorMessage } from '@/lib/api';
import { createValuation, requestKeys } from './api';
import { Facts } from './parts';

const shape = createValuationSchema.shape;
const formSchema = z.object({
  cautiousDiscount: shape.cautiousDiscount.unwrap(),
  applyGroundFloorCorrection: z.boolean(),
  applyNoBalconyCorrection: z.boolean(),
  applyNoElevatorCorrection: z.boolean(),
  groundFloorCorrection: shape.groundFloorCorrection.unwrap(),
  noBalconyCorrection: shape.noBalconyCorrection.unwrap(),
  noElevatorCorrection: shape.noElevatorCorrection.unwrap(),
  linkZona: z.string(),
});
type ValuationForm = z.infer<typeof formSchema>;

const euro = (v: number | undefined) => (v === undefined ? '—' : formatEuro(v));
const signed = (v: number) => `${v > 0 ? '+' : ''}${formatNumber(v)}%`;

export function availableResult(v: DossierValuation | undefined): ValuationAvailable | undefined {
  return v?.available && v.result.available ? v.result : undefined;
}

/** The form starts from the latest valuation's choices, else the spec's pre-checks. */
function initialValues(d: RequestDossier): ValuationForm {
  const p = d.property;
  const latest = d.valuations.at(-1);
  const res = availableResult(latest);
  const features = (p.features ?? []).map((f) => labelOf(FEATURE_LABELS, f));
  const flags = defaultCorrectionFlags({ floor: p.floor, hasTerrace: p.hasTerrace, features });
  const line = (code: string) => res?.corrections.find((c) => c.code === code);
  return {
    cautiousDiscount: latest?.cautiousDiscount ?? -10,
    applyGroundFloorCorrection: res ? Boolean(line('groundFloor')) : flags.applyGroundFloorCorrection,
    applyNoBalconyCorrection: res ? Boolean(line('noBalcony')) : flags.applyNoBalconyCorrection,
    applyNoElevatorCorrection: res ? Boolean(line('noElevator')) : flags.applyNoElevatorCorrection,
    groundFloorCorrection: line('groundFloor')?.percent ?? DEFAULT_CORRECTIONS.groundFloor,
    noBalconyCorrection: line('noBalcony')?.percent ?? DEFAULT_CORRECTIONS.noBalcony,
    noElevatorCorrection: line('noElevator')?.percent ?? DEFAULT_CORRECTIONS.noElevator,
    linkZona: res?.zone.rule === 'admin' ? res.zone.linkZona : '',
  };
}

const CORRECTIONS = [
  { flag: 'applyGroundFloorCorrection', value: 'groundFloorCorrection', label: 'Piano terra' },
  { flag: 'applyNoBalconyCorrection', value: 'noBalconyCorrection', label: 'Assenza di balcone' },
  { flag: 'applyNoElevatorCorrection', value: 'noElevatorCorrection', label: 'Assenza di ascensore' },
] as const;

export function ValuationStep({ dossier }: { dossier: RequestDossier }) {
  const latest = dossier.valuations.at(-1);
  const res = availableResult(latest);
  return (
    <div className="space-y-6">
      {!latest ? (
        <p className="text-slate-700" data-testid="valuation-none">
          L'immobile non è ancora stato valutato: imposta i parametri e premi «Ricalcola».
        </p>
      ) : res ? (
        <ValuationResultView valuation={latest} result={res} />
      ) : (
        <p role="note" className="rounded-lg bg-amber-50 p-3 text-amber-900" data-testid="valuation-unavailable">
          Valutazione non disponibile: {latest.reason}
        </p>
      )}
      <ValuationForm key={latest?.createdAt ?? 'none'} dossier={dossier} />
      <ValuationHistory valuations={dossier.valuations} />
    </div>
  );
}

function ValuationResultView({ valuation, result }: { valuation: DossierValuation; result: ValuationAvailable }) {
  return (
    <div className="space-y-4" data-testid="valuation-result">
      <div className="grid gap-3 sm:grid-cols-3">
        <Figure label="Valore di mercato (OMI)" value={`${euro(result.propertyValueMin)} - ${euro(result.propertyValueMax)}`} testId="valuation-range" />
        <Figure label="Valore medio" value={euro(result.propertyValueAvg)} testId="valuation-avg" />
        <Figure
          label={`Valore prudenziale (${signed(result.cautiousDiscount)})`}
          value={euro(result.adjustedAvg)}
          detail={`${euro(result.adjustedMin)} - ${euro(result.adjustedMax)}`}
          highlight
          testId="valuation-adjusted"
        />
      </div>
      <Facts
        rows={[
          { label: 'Valore al m²', value: `${euro(result.valueSqmMin)} - ${euro(result.valueSqmMax)}`, testId: 'valuation-sqm' },
          { label: 'Quotazione OMI usata (€/m²)', value: `${euro(result.omiDetails.comprMin)} - ${euro(result.omiDetails.comprMax)}` },
          { label: 'Zona OMI', value: `${result.zone.zona} (fascia ${result.zone.fascia}${result.zone.fasciaDescr ? ` - ${result.zone.fasciaDescr}` : ''})`, testId: 'valuation-zone' },
          { label: 'Descrizione zona', value: result.zone.zonaDescr ?? '—' },
          { label: 'Stato conservativo', value: result.stato.used ?? 'senza indicazione' },
          { label: 'Superficie', value: `${formatNumber(result.surfaceArea)} m²` },
          { label: 'Fonte', value: result.omiSource },
          { label: 'Calcolata il', value: formatDateTime(valuation.createdAt) },
        ]}
      />
      <p className="text-sm text-slate-700">
        <span className="font-semibold">Scelta della zona:</span> {result.zone.reason}
      </p>
      {result.trend && result.trend.points.length > 0 && (
        <PriceTrend
          trend={result.trend}
          title="Andamento delle quotazioni OMI della zona"
          subtitle={`Zona ${result.zone.zona} (fascia ${result.zone.fascia}), ${result.descrTipologia}, stato ${result.stato.used ?? 'senza indicazione'}: euro al m²`}
          testId="valuation-trend"
        />
      )}
      <div className="grid gap-4 md:grid-cols-2">
        <div>
          <h3 className="font-semibold text-slate-900">Correzioni applicate</h3>
          {result.corrections.length ? (
            <ul className="mt-1 list-disc pl-5 text-sm text-slate-700" data-testid="valuation-corrections">
              {result.corrections.map((c) => (
                <li key={c.code}>
                  {c.label}: {signed(c.percent)}
                </li>
              ))}
              <li className="font-medium">Totale: {signed(result.correctionTotalPercent)}</li>
            </ul>
          ) : (
            <p className="mt-1 text-sm text-slate-700">Nessuna correzione.</p>
          )}
        </div>
        <div>
          <h3 className="font-semibold text-slate-900">Note di valutazione</h3>
          {result.notes.length ? (
            <ul className="mt-1 list-disc pl-5 text-sm text-slate-700" data-testid="valuation-notes">
              {result.notes.map((n) => (
                <li key={n}>{n}</li>
              ))}
            </ul>
          ) : (
            <p className="mt-1 text-sm text-slate-700">Nessuna caratteristica indicata.</p>
          )}
        </div>
      </div>
      <details className="rounded-lg border border-slate-200 p-3 text-sm">
        <summary className="cursor-pointer font-semibold text-brand-navy">Come è stato calcolato</summary>
        <ul className="mt-2 list-disc space-y-1 pl-5 text-slate-700">
          {result.explanation.map((e, i) => (
            <li key={i}>{e}</li>
          ))}
        </ul>
      </details>
      <details className="rounded-lg border border-slate-200 p-3 text-sm">
        <summary className="cursor-pointer font-semibold text-brand-navy">
          Quotazioni OMI considerate ({result.rowsConsidered.length}, semestre {result.semester})
        </summary>
        <div className="mt-2 max-h-80 overflow-auto" role="region" aria-label="Quotazioni OMI considerate" tabIndex={0}>
          <table className="w-full min-w-[480px] text-left text-sm">
            <thead className="sticky top-0 bg-white">
              <tr>
                <th scope="col" className="py-1 pr-3">Zona</th>
                <th scope="col" className="py-1 pr-3">Fascia</th>
                <th scope="col" className="py-1 pr-3">Stato</th>
                <th scope="col" className="py-1 pr-3 text-right">Min €/m²</th>
                <th scope="col" className="py-1 pr-3 text-right">Max €/m²</th>
                <th scope="col" className="py-1">Usata</th>
              </tr>
            </thead>
            <tbody>
              {result.rowsConsidered.map((r, i) => (
                <tr key={`${r.linkZona}-${r.stato ?? '-'}-${i}`} className={r.used ? 'bg-green-50 font-semibold' : 'border-t border-slate-100'}>
                  <td className="py-1 pr-3">{r.zona}</td>
                  <td className="py-1 pr-3">{r.fascia}</td>
                  <td className="py-1 pr-3">
                    {r.stato ?? '—'}
                    {r.statoPrev ? ' (P)' : ''}
                  </td>
                  <td className="py-1 pr-3 text-right tabular-nums">{r.comprMin === null ? '—' : formatNumber(r.comprMin)}</td>
                  <td className="py-1 pr-3 text-right tabular-nums">{r.comprMax === null ? '—' : formatNumber(r.comprMax)}</td>
                  <td className="py-1">{r.used ? 'Sì' : ''}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </div>
  );
}

function Figure({ label, value, detail, highlight, testId }: { label: string; value: string; detail?: string; highlight?: boolean; testId?: string }) {
  return (
    <div className={highlight ? 'rounded-xl bg-brand-cream p-4 ring-1 ring-brand-orange/40' : 'rounded-xl bg-slate-50 p-4'}>
      <p className="text-sm text-slate-700">{label}</p>
      <p className="mt-1 text-lg font-bold text-brand-navy tabular-nums sm:text-xl" data-testid={testId}>
        {value}
      </p>
      {detail && <p className="text-sm text-slate-700 tabular-nums">{detail}</p>}
    </div>
  );
}

function ValuationForm({ dossier }: { dossier: RequestDossier }) {
  const queryClient = useQueryClient();
  const propertyId = dossier.property.id;
  const res = availableResult(dossier.valuations.at(-1));
  const [zones] = useState(() => [...(res?.zones ?? [])].sort((a, b) => a.zona.localeCompare(b.zona, 'it', { numeric: true })));
  const {
    register,
    handleSubmit,
    formState: { errors, dirtyFields },
  } = useForm<ValuationForm>({ resolver: zodResolver(formSchema), defaultValues: initialValues(dossier) });

  const run = useMutation({
    mutationFn: (v: ValuationForm) =>
      createValuation(propertyId, {
        ...v,
        linkZona: v.linkZona || null,
      }),
    onSuccess: (v) => {
      if (v.available) toast.success(REVIEW_MESSAGES.valuationDone, { description: v.adjustedAvg !== undefined ? `Valore prudenziale ${formatEuro(v.adjustedAvg)}` : undefined });
      else toast.warning('Valutazione non disponibile', { description: v.reason });
      void queryClient.invalidateQueries({ queryKey: requestKeys.dossier(propertyId) });
    },
    onError: (err) => {
      // only the discount changed: the spec's own message for it
      const onlyDiscount = Object.keys(dirtyFields).length === 1 && dirtyFields.cautiousDiscount;
      toast.error(onlyDiscount ? REVIEW_MESSAGES.discountFailed : REVIEW_MESSAGES.valuationFailed, { description: errorMessage(err) });
    },
  });

  return (
    <form noValidate onSubmit={handleSubmit((v) => run.mutate(v))} aria-label="Parametri della valutazione" className="space-y-4 rounded-xl border border-slate-200 p-4">
      <h3 className="font-semibold text-slate-900">Parametri</h3>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="Ribasso prudenziale (%)" error={errors.cautiousDiscount?.message} hint="Da -50 a 0; predefinito -10">
          <Input type="number" min={-50} max={0} step={1} inputMode="numeric" {...register('cautiousDiscount', { valueAsNumber: true })} data-testid="valuation-discount" />
        </Field>
        {zones.length > 1 && (
          <Field label="Zona OMI del comune" hint="Scegli un'altra zona se quella automatica non descrive l'immobile">
            <Select {...register('linkZona')} data-testid="valuation-zone-select">
              <option value="">Automatica</option>
              {zones.map((z) => (
                <option key={z.linkZona} value={z.linkZona}>
                  {z.zona} ({z.fascia}){z.zonaDescr ? ` - ${z.zonaDescr}` : ''}
                </option>
              ))}
            </Select>
          </Field>
        )}
      </div>
      <fieldset className="space-y-3">
        <legend className="text-sm font-medium text-slate-800">Correzioni</legend>
        {CORRECTIONS.map((c) => {
          return (
            <div key={c.flag} className="flex flex-wrap items-center gap-3">
              <label className="flex min-w-52 items-center gap-2 text-sm text-slate-800">
                <input type="checkbox" className="size-5 accent-brand-navy" {...register(c.flag)} data-testid={`valuation-${c.flag}`} />
                {c.label}
              </label>
              <div className="w-28">
                <Input
                  type="number"
                  max={0}
                  step={1}
                  aria-label={`${c.label}: correzione in percentuale`}
                  {...register(c.value, { valueAsNumber: true })}
                  aria-invalid={errors[c.value] ? true : undefined}
                  data-testid={`valuation-${c.value}`}
                />
              </div>
              <span className="text-sm text-slate-600">%</span>
              {errors[c.value]?.message && <p className="w-full text-sm font-medium text-red-700">{errors[c.value]?.message}</p>}
            </div>
          );
        })}
        {dossier.property.hasTerrace && <p className="text-sm text-slate-700">Terrazzo: +{TERRACE_BONUS}% (applicato sempre quando presente)</p>}
      </fieldset>
      <p className="text-sm text-slate-600" data-testid="valuation-hint">
        Premi «Ricalcola» per applicare le correzioni e il ribasso prudenziale.
      </p>
      <Button type="submit" loading={run.isPending} data-testid="valuation-run">
        {!run.isPending && <Calculator aria-hidden="true" className="size-4" />}
        Ricalcola
      </Button>
    </form>
  );
}

function ValuationHistory({ valuations }: { valuations: DossierValuation[] }) {
  if (!valuations.length) return null;
  const rows = [...valuations].reverse();
  return (
    <div>
      <h3 className="font-semibold text-slate-900">Storico delle valutazioni</h3>
      <div className="mt-2 overflow-x-auto" role="region" aria-label="Storico delle valutazioni" tabIndex={0}>
        <table className="w-full min-w-[640px] text-left text-sm" data-testid="valuation-history">
          <caption className="sr-only">Valutazioni dell'immobile, dalla più recente</caption>
          <thead className="bg-slate-50">
            <tr>
              <th scope="col" className="px-3 py-2">Data</th>
              <th scope="col" className="px-3 py-2">Eseguita da</th>
              <th scope="col" className="px-3 py-2 whitespace-nowrap">Valore (min - max)</th>
              <th scope="col" className="px-3 py-2 text-right">Ribasso</th>
              <th scope="col" className="px-3 py-2 text-right whitespace-nowrap">Valore prudenziale</th>
              <th scope="col" className="px-3 py-2">Email</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((v) => (
              <tr key={v.createdAt} className="border-t border-slate-100" data-testid="valuation-history-row">
                <td className="px-3 py-2 whitespace-nowrap">
                  <time dateTime={v.createdAt}>{formatDateTime(v.createdAt)}</time>
                </td>
                <td className="px-3 py-2">{v.origin === 'submission' ? 'Automatica (invio richiesta)' : (v.createdBy?.name ?? 'Amministratore')}</td>
                <td className="px-3 py-2 whitespace-nowrap tabular-nums">{v.available ? `${euro(v.valuationMin)} - ${euro(v.valuationMax)}` : `Non disponibile`}</td>
                <td className="px-3 py-2 text-right whitespace-nowrap tabular-nums">{v.available && v.cautiousDiscount !== undefined ? `${v.cautiousDiscount}%` : '—'}</td>
                <td className="px-3 py-2 text-right whitespace-nowrap tabular-nums">{v.available ? euro(v.adjustedAvg) : '—'}</td>
                <td className="px-3 py-2 whitespace-nowrap">{v.emailSentAt ? `Inviata il ${formatDateTime(v.emailSentAt)}` : '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
