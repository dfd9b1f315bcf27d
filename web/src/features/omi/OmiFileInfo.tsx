import { Info } from 'lucide-react';
import { Card, CardContent, CardHeader } from '@/components/ui';

/** The columns a VALORI file must have (spec 001, OMI import: "Expected columns"). */
export const EXPECTED_COLUMNS: readonly { name: string; note?: string }[] = [
  { name: 'Area_territoriale' },
  { name: 'Regione' },
  { name: 'Prov' },
  { name: 'Comune_ISTAT' },
  { name: 'Comune_cat' },
  { name: 'Comune_amm' },
  { name: 'Comune_descrizione' },
  { name: 'Fascia' },
  { name: 'Zona' },
  { name: 'LinkZona', note: 'chiave univoca della zona' },
  { name: 'Cod_Tip' },
  { name: 'Descr_Tipologia' },
  { name: 'Stato' },
  { name: 'Stato_prev' },
  { name: 'Compr_min', note: '€/mq' },
  { name: 'Compr_max', note: '€/mq' },
  { name: 'Loc_min', note: '€/mq al mese' },
  { name: 'Loc_max', note: '€/mq al mese' },
];

/** Info text of the import page: how the file is read and which columns it needs. */
export function OmiFileInfo() {
  return (
    <Card className="h-fit">
      <CardHeader>
        <h2 className="flex items-center gap-2 text-lg font-bold">
          <Info aria-hidden="true" className="size-5 text-brand-orange-dark" />
          Formato del file
        </h2>
      </CardHeader>
      <CardContent className="space-y-4 text-sm text-slate-700">
        <ul className="list-disc space-y-2 pl-5">
          <li>
            La <strong>prima riga</strong> del file è il titolo (es. «Quotazioni Immobiliari : Valori di Mercato - Semestre
            2025/1»), la <strong>seconda</strong> l&apos;intestazione dei campi, separati da punto e virgola.
          </li>
          <li>
            Ogni record è identificato da <strong>semestre + LinkZona + tipologia + stato</strong>: se esiste già viene
            aggiornato automaticamente, altrimenti viene inserito. Un altro semestre si aggiunge allo storico.
          </li>
          <li>Il semestre indicato deve corrispondere a quello del titolo del file.</li>
          <li>Le righe non valide vengono contate e segnalate con il motivo; le altre vengono importate.</li>
        </ul>
        <div>
          <h3 className="font-semibold text-brand-navy">Colonne attese</h3>
          <ul className="mt-2 flex flex-wrap gap-1.5" aria-label="Colonne attese" data-testid="omi-expected-columns">
            {EXPECTED_COLUMNS.map((c) => (
              <li key={c.name} className="rounded-md border border-slate-200 bg-slate-50 px-2 py-1">
                <code className="font-mono text-xs text-slate-900">{c.name}</code>
                {c.note && <span className="ml-1 text-xs text-slate-600">({c.note})</span>}
              </li>
            ))}
          </ul>
        </div>
      </CardContent>
    </Card>
  );
}
