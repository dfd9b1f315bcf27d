import { Area, CartesianGrid, ComposedChart, Line, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { formatNumber } from '@domain/format';
import type { TrendPoint } from '@domain/omi/trend';

interface Datum {
  semester: string;
  band: [number, number] | null;
  mid: number | null;
}

/**
 * The drawing of a price trend (recharts, loaded with its own chunk): the min-max band per
 * semester and the mid value as a line. Decorative for assistive technology: the caller
 * hides it and gives the same figures as text and as a table.
 */
export default function PriceTrendPlot({ points }: { points: readonly TrendPoint[] }) {
  const data: Datum[] = points.map((p) => ({
    semester: p.semester,
    band: p.min !== null && p.max !== null ? [p.min, p.max] : null,
    mid: p.mid,
  }));
  return (
    <ResponsiveContainer width="100%" height={260}>
      <ComposedChart data={data} margin={{ top: 12, right: 24, bottom: 4, left: 0 }} accessibilityLayer={false}>
        <CartesianGrid stroke="#e2e8f0" strokeDasharray="3 3" />
        <XAxis dataKey="semester" tick={{ fill: '#334155', fontSize: 12 }} tickMargin={6} />
        <YAxis
          tick={{ fill: '#334155', fontSize: 12 }}
          tickFormatter={(v: number) => formatNumber(v)}
          width={64}
          domain={[(min: number) => Math.max(0, Math.floor((min * 0.9) / 100) * 100), (max: number) => Math.ceil((max * 1.05) / 100) * 100]}
        />
        <Tooltip content={<TrendTooltip />} />
        <Area type="linear" dataKey="band" name="Minimo - massimo" stroke="#223d73" strokeWidth={1.5} fill="#223d73" fillOpacity={0.18} isAnimationActive={false} connectNulls={false} />
        <Line type="linear" dataKey="mid" name="Valore medio" stroke="#ff6603" strokeWidth={2} dot={{ r: 3 }} isAnimationActive={false} connectNulls={false} />
      </ComposedChart>
    </ResponsiveContainer>
  );
}

function TrendTooltip({ active, payload }: { active?: boolean; payload?: { payload?: Datum }[] }) {
  const d = payload?.[0]?.payload;
  if (!active || !d) return null;
  return (
    <div className="rounded-md border border-slate-200 bg-white px-3 py-2 text-sm shadow">
      <p className="font-semibold text-slate-900">{d.semester}</p>
      {d.band ? (
        <>
          <p className="tabular-nums text-slate-700">
            {formatNumber(d.band[0])} - {formatNumber(d.band[1])} €/m²
          </p>
          {d.mid !== null && <p className="tabular-nums text-slate-700">medio {formatNumber(d.mid)} €/m²</p>}
        </>
      ) : (
        <p className="text-slate-700">Nessun valore pubblicato</p>
      )}
    </div>
  );
}
