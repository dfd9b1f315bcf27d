/**
 * One zone's history on the Dati OMI page, pure: of the zone's records across semesters
 * (every type and state), the series the page draws. Type: the filter's, else Abitazioni
 * civili when the zone quotes it, else the lowest Cod_Tip of its newest semester. State: the
 * filter's, else the prevalent one (`P`) of the newest semester that quotes that type, kept
 * for every semester (a series never mixes states).
 */
import { compareSemestersDesc } from './semester';
import { descrTipologia, type Stato } from './tipologia';
import type { OmiQuotation } from './types';
import { priceTrend, type PriceTrend, type TrendZoneInfo } from './trend';

const ABITAZIONI_CIVILI = 20;

export interface ZoneHistory {
  prov: string;
  linkZona: string;
  zona: string;
  fascia: string;
  comune: string;
  codTip: number;
  descrTipologia: string;
  stato: Stato | null;
  /** how the type and state were chosen, in Italian */
  basis: string;
  trend: PriceTrend;
}

export function zoneHistory(
  records: readonly OmiQuotation[],
  zoneInfos: readonly TrendZoneInfo[],
  filter: { codTip?: number; stato?: Stato },
): ZoneHistory | undefined {
  const newestFirst = [...records].sort((a, b) => compareSemestersDesc(a.semester, b.semester));
  const newest = newestFirst[0];
  if (!newest) return undefined;
  const why: string[] = [];
  let codTip = filter.codTip;
  if (codTip === undefined) {
    const inNewest = newestFirst.filter((r) => r.semester === newest.semester).map((r) => r.codTip);
    codTip = records.some((r) => r.codTip === ABITAZIONI_CIVILI) ? ABITAZIONI_CIVILI : Math.min(...inNewest);
    why.push(`tipologia ${descrTipologia(codTip)} (scegli una tipologia per vederne un'altra)`);
  }
  const typed = newestFirst.filter((r) => r.codTip === codTip);
  const head = typed[0];
  if (!head) return undefined;
  let stato: Stato | null;
  if (filter.stato) stato = filter.stato;
  else {
    const sameSemester = typed.filter((r) => r.semester === head.semester);
    stato = (sameSemester.find((r) => r.statoPrev) ?? sameSemester.find((r) => r.stato === 'NORMALE') ?? head).stato;
    why.push(`stato ${stato ?? 'senza indicazione'}${sameSemester.some((r) => r.statoPrev && r.stato === stato) ? ', prevalente nel semestre più recente' : ''}`);
  }
  const series = typed.filter((r) => r.stato === stato);
  const last = series[0] ?? head;
  return {
    prov: last.prov,
    linkZona: last.linkZona,
    zona: last.zona,
    fascia: last.fascia,
    comune: last.comuneDescrizione,
    codTip,
    descrTipologia: descrTipologia(codTip),
    stato,
    basis: why.length ? `Mostrati: ${why.join('; ')}.` : '',
    trend: priceTrend(series, zoneInfos),
  };
}
