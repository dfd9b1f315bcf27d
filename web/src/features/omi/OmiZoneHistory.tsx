import type { QuotationPage } from '@domain/omi/api';
import { PriceTrend } from '@/components/price-trend/PriceTrend';
import { Button } from '@/components/ui';

/**
 * With the zone filter: one zone's history (the same chart as the Istruttoria), or, when
 * the code names zones of several comuni, the zones to choose from.
 */
export function OmiZoneHistory({ data, onPick }: { data: QuotationPage | undefined; onPick: (linkZona: string) => void }) {
  if (!data || data.zoneHistory === undefined) return null;
  const h = data.zoneHistory;
  if (h) {
    return (
      <div className="mt-6 space-y-2" data-testid="omi-zone-history">
        <PriceTrend
          trend={h.trend}
          title={`Andamento delle quotazioni della zona ${h.zona} di ${h.comune} (${h.prov})`}
          subtitle={`LinkZona ${h.linkZona}, fascia ${h.fascia}, ${h.descrTipologia}, stato ${h.stato ?? 'senza indicazione'}: euro al m², ogni semestre importato`}
          headingLevel={2}
          testId="omi-zone-trend"
        />
        {h.basis && <p className="text-sm text-slate-700">{h.basis}</p>}
      </div>
    );
  }
  const matches = data.zoneMatches ?? [];
  if (matches.length < 2) return null;
  return (
    <div className="mt-6 rounded-xl border border-slate-200 p-4 text-sm" data-testid="omi-zone-matches">
      <p className="text-slate-800">
        Il codice indicato corrisponde a {matches.length === 20 ? 'almeno 20' : matches.length} zone: indica il comune o scegli la zona per vederne lo
        storico.
      </p>
      <ul className="mt-2 flex flex-wrap gap-2">
        {matches.map((m) => (
          <li key={`${m.prov}-${m.linkZona}`}>
            <Button variant="ghost" size="sm" onClick={() => onPick(m.linkZona)}>
              {m.zona} - {m.comune} ({m.prov})
            </Button>
          </li>
        ))}
      </ul>
    </div>
  );
}
