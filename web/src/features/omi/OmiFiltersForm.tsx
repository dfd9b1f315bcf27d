import { RotateCcw } from 'lucide-react';
import { STATI, TIPOLOGIA_FILTER_OPTIONS } from '@domain/omi/tipologia';
import { Button, Card, CardContent, Field, Input, Select } from '@/components/ui';
import type { OmiFilterValues } from './use-omi-filters';

const STATO_LABEL: Record<string, string> = { OTTIMO: 'Ottimo', NORMALE: 'Normale', SCADENTE: 'Scadente' };

/** Province codes are two letters: anything else is dropped as it is typed. */
function toProvincia(value: string): string {
  return value
    .toUpperCase()
    .replace(/[^A-Z]/g, '')
    .slice(0, 2);
}

/** The search form of the Dati OMI page and, when a filter is set, "Azzera filtri". */
export function OmiFiltersForm({
  values,
  semesters,
  anyFilter,
  onChange,
  onReset,
}: {
  values: OmiFilterValues;
  /** the semesters offered in the select */
  semesters: string[];
  anyFilter: boolean;
  onChange: (name: keyof OmiFilterValues, value: string) => void;
  onReset: () => void;
}) {
  return (
    <Card className="mt-6">
      <CardContent>
        <form
          role="search"
          aria-label="Filtri dei dati OMI"
          onSubmit={(e) => e.preventDefault()}
          className="grid grid-cols-6 gap-4 lg:grid-cols-[minmax(0,1.8fr)_minmax(0,0.8fr)_minmax(0,1.3fr)_minmax(0,1.8fr)_minmax(0,1.2fr)_minmax(0,1.2fr)]"
        >
          <Field label="Comune" id="omi-filter-comune" className="col-span-4 lg:col-span-1">
            <Input
              type="search"
              value={values.comune}
              onChange={(e) => onChange('comune', e.target.value)}
              placeholder="es. Milano"
              autoComplete="off"
              maxLength={100}
              data-testid="omi-filter-comune"
            />
          </Field>
          <Field label="Provincia" id="omi-filter-provincia" className="col-span-2 lg:col-span-1">
            <Input
              value={values.provincia}
              onChange={(e) => onChange('provincia', toProvincia(e.target.value))}
              placeholder="es. MI"
              autoComplete="off"
              autoCapitalize="characters"
              maxLength={2}
              className="uppercase placeholder:normal-case"
              data-testid="omi-filter-provincia"
            />
          </Field>
          <Field label="Zona o LinkZona" id="omi-filter-zona" className="col-span-6 lg:col-span-1">
            <Input
              value={values.zona}
              onChange={(e) => onChange('zona', e.target.value.toUpperCase().replace(/[^A-Z0-9]/g, '').slice(0, 20))}
              placeholder="es. B12"
              autoComplete="off"
              autoCapitalize="characters"
              maxLength={20}
              className="uppercase placeholder:normal-case"
              data-testid="omi-filter-zona"
            />
          </Field>
          <Field label="Tipologia" id="omi-filter-tipologia" className="col-span-6 lg:col-span-1">
            <Select value={values.tipologia} onChange={(e) => onChange('tipologia', e.target.value)} data-testid="omi-filter-tipologia">
              <option value="">Tutte</option>
              {TIPOLOGIA_FILTER_OPTIONS.map((o) => (
                <option key={o.codTip} value={String(o.codTip)}>
                  {o.label}
                </option>
              ))}
            </Select>
          </Field>
          <Field label="Stato" id="omi-filter-stato" className="col-span-3 lg:col-span-1">
            <Select value={values.stato} onChange={(e) => onChange('stato', e.target.value)} data-testid="omi-filter-stato">
              <option value="">Tutti</option>
              {STATI.map((s) => (
                <option key={s} value={s}>
                  {STATO_LABEL[s]}
                </option>
              ))}
            </Select>
          </Field>
          <Field label="Semestre" id="omi-filter-semestre" className="col-span-3 lg:col-span-1">
            <Select value={values.semestre} onChange={(e) => onChange('semestre', e.target.value)} data-testid="omi-filter-semestre">
              <option value="">Tutti</option>
              {semesters.map((s) => (
                <option key={s} value={s}>
                  {s}
                </option>
              ))}
            </Select>
          </Field>
        </form>
        {anyFilter && (
          <div className="mt-4 flex justify-end">
            <Button variant="ghost" size="sm" onClick={onReset} data-testid="omi-filter-reset">
              <RotateCcw aria-hidden="true" className="size-4" />
              Azzera filtri
            </Button>
          </div>
        )}
      </CardContent>
    </Card>
  );
}
