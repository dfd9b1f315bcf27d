import { useId, useState } from 'react';
import { CalendarCheck, Images, Send } from 'lucide-react';
import { formatDecimal, formatEuro, formatEuroCents, formatNumber } from '@domain/format';
import {
  AGENT_REQUEST_STATUS_LABELS,
  CARD_FEATURES,
  commissionAmountOf,
  commissionChoices,
  type AgentOption,
} from '@domain/agent-requests';
import { FEATURE_LABELS, PROPERTY_TYPE_LABELS, floorLabel } from '@domain/property/enums';
import { provinceByCode } from '@domain/places';
import { optionExpiryLabel, optionRateLabel, paymentTypeLabel } from '@domain/review/rules';
import { Badge, Button, ButtonLink, Card } from '@/components/ui';

export const placeOf = (o: { address: string; city: string | null; province: string | null }) =>
  [o.address, o.city ? `${o.city}${o.province ? ` (${o.province})` : ''}` : o.province].filter(Boolean).join(', ');

function Fact({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <dt className="text-xs font-medium text-slate-600">{label}</dt>
      <dd className="font-semibold text-slate-900">{value}</dd>
    </div>
  );
}

/**
 * One option as an agent sees it: place, facts, feature badges (the first 3, then "+N"),
 * value and option amount, the commission slider (step 1 from the option's minimum to its
 * maximum, starting at the minimum; disabled on an option in the agent's charge) with the
 * commission amount, the media dialog and the request button.
 */
export function OptionCard({
  option,
  onMedia,
  onRequest,
  requesting,
}: {
  option: AgentOption;
  onMedia: (option: AgentOption) => void;
  /** absent on an option in the agent's charge */
  onRequest?: (option: AgentOption, commissionPercentage: number) => void;
  requesting?: boolean;
}) {
  const sliderId = useId();
  const choices = commissionChoices(option.minAgentCommissionPercentage, option.agentCommissionPercentage);
  const assigned = option.assignedToMe;
  const [value, setValue] = useState(() =>
    assigned && option.myRequest ? option.myRequest.requestedCommissionPercentage : option.minAgentCommissionPercentage,
  );
  const amount = commissionAmountOf(option.optionAmount, value);
  const shown = option.features.slice(0, CARD_FEATURES);
  const more = option.features.length - shown.length;
  const featureLabel = (f: string) => (FEATURE_LABELS as Record<string, string>)[f] ?? f;
  const province = provinceByCode(option.province);
  const place = placeOf(option);
  const pct = (n: number) => `${formatDecimal(n)}%`;

  return (
    <Card className="flex h-full flex-col p-5" data-testid="agent-option" data-property-id={option.propertyId}>
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0">
          <h3 className="break-words text-lg font-bold text-brand-navy">{option.address}</h3>
          <p className="text-sm text-slate-700">
            {[option.city ? `${option.city}${option.province ? ` (${option.province})` : ''}` : option.province, province?.region].filter(Boolean).join(', ')}
          </p>
        </div>
        {assigned ? (
          <Badge variant="success" data-testid="option-badge">In Carico</Badge>
        ) : (
          <Badge variant="secondary" data-testid="option-badge">Disponibile</Badge>
        )}
      </div>

      <dl className="mt-4 grid grid-cols-2 gap-3">
        <Fact label="Tipologia" value={option.propertyType ? ((PROPERTY_TYPE_LABELS as Record<string, string>)[option.propertyType] ?? option.propertyType) : '—'} />
        <Fact label="Superficie" value={option.surfaceArea ? `${formatNumber(option.surfaceArea)} m²` : '—'} />
        <Fact label="Locali" value={option.numRooms ? String(option.numRooms) : '—'} />
        <Fact label="Piano" value={option.floor ? floorLabel(option.floor) : '—'} />
      </dl>

      {option.features.length > 0 && (
        <ul className="mt-4 flex flex-wrap gap-1.5" aria-label="Caratteristiche" data-testid="option-features">
          {shown.map((f) => (
            <li key={f}>
              <Badge variant="outline">{featureLabel(f)}</Badge>
            </li>
          ))}
          {more > 0 && (
            <li>
              <Badge variant="secondary" title={option.features.slice(CARD_FEATURES).map(featureLabel).join(', ')}>
                +{more}
                <span className="sr-only"> altre caratteristiche: {option.features.slice(CARD_FEATURES).map(featureLabel).join(', ')}</span>
              </Badge>
            </li>
          )}
        </ul>
      )}

      <dl className="mt-4 grid grid-cols-2 gap-3 rounded-xl bg-slate-50 p-3">
        <Fact label="Valore immobile" value={formatEuro(option.propertyValue)} />
        <Fact label={`Premio opzione (${optionRateLabel(option.optionDuration)})`} value={formatEuro(option.optionAmount)} />
        <Fact label="Scadenza opzione" value={optionExpiryLabel(option)} />
        <Fact label="Pagamento" value={paymentTypeLabel(option.paymentType)} />
        <Fact label="Provvigione" value={`${pct(option.minAgentCommissionPercentage)} - ${pct(option.agentCommissionPercentage)}`} />
      </dl>

      <div className="mt-4">
        <label htmlFor={sliderId} className="flex items-baseline justify-between gap-2 text-sm font-medium text-slate-800">
          <span>{assigned ? 'Provvigione concordata' : 'Provvigione richiesta'}</span>
          <span className="text-base font-bold text-brand-navy" data-testid="commission-value">
            {pct(value)}
          </span>
        </label>
        <input
          id={sliderId}
          type="range"
          min={option.minAgentCommissionPercentage}
          max={choices.at(-1) ?? option.minAgentCommissionPercentage}
          step={1}
          value={value}
          disabled={assigned || choices.length === 0}
          onChange={(e) => setValue(Number(e.target.value))}
          aria-valuetext={`${pct(value)}, ${formatEuroCents(amount)}`}
          className="mt-2 h-2 w-full cursor-pointer accent-brand-orange-dark disabled:cursor-not-allowed disabled:opacity-60"
          data-testid="commission-slider"
        />
        <p className="mt-1 text-sm text-slate-700">
          Importo provvigione: <strong data-testid="commission-amount">{formatEuroCents(amount)}</strong>
        </p>
      </div>

      {option.myRequest && !assigned && (
        <p className="mt-3 text-sm text-slate-700" data-testid="my-request-status">
          La tua richiesta: <Badge variant="outline">{AGENT_REQUEST_STATUS_LABELS[option.myRequest.status] ?? option.myRequest.status}</Badge>
        </p>
      )}

      <div className="mt-auto flex flex-col gap-2 pt-5">
        <Button variant="outline" onClick={() => onMedia(option)} aria-label={`Foto e Video: ${place}`} data-testid="option-media">
          <Images aria-hidden="true" className="size-4" />
          Foto e Video
        </Button>
        {assigned && (
          <ButtonLink to={`/agent-area/purchase-options/${option.propertyId}`} aria-label={`Venditore e visite: ${place}`} data-testid="option-deal">
            <CalendarCheck aria-hidden="true" className="size-4" />
            Venditore e visite
          </ButtonLink>
        )}
        {onRequest && (
          <Button
            onClick={() => onRequest(option, value)}
            loading={requesting}
            disabled={choices.length === 0}
            aria-label={`Richiedi Assegnazione: ${place}, al ${pct(value)}`}
            data-testid="option-request"
          >
            {!requesting && <Send aria-hidden="true" className="size-4" />}
            Richiedi Assegnazione
          </Button>
        )}
      </div>
    </Card>
  );
}
