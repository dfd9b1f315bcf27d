import { useEffect } from 'react';
import { useLocation } from 'react-router-dom';
import { BadgeEuro, CalendarClock, CircleCheck, FilePenLine, HandCoins, House, KeyRound, ShieldCheck } from 'lucide-react';
import { FEE_RATE_PER_100K, OPTION_DURATIONS } from '@domain/fees';
import { formatEuro } from '@domain/format';
import { buttonClass, Card, CardContent } from '@/components/ui';
import { usePageTitle } from '@/lib/use-page-title';
import { FeeSimulator } from './FeeSimulator';
import { captureSourceId } from '@/lib/source-id';
import { VoiceWidget } from './VoiceWidget';
import { WizardSection } from './WizardSection';

const minRate = Math.min(...Object.values(FEE_RATE_PER_100K));
const maxRate = Math.max(...Object.values(FEE_RATE_PER_100K));

const steps = [
  {
    icon: House,
    title: 'Candida il tuo immobile',
    text: "Inserisci indirizzo, caratteristiche e foto della casa: in pochi minuti ricevi gratis una stima basata sui dati ufficiali OMI dell'Agenzia delle Entrate.",
  },
  {
    icon: FilePenLine,
    title: "Firma l'opzione di acquisto",
    text: 'Concordiamo insieme il prezzo di vendita e la durata: 6, 8 o 12 mesi. Verifica d’identità, deleghe e firma si fanno online, senza code né uffici.',
  },
  {
    icon: HandCoins,
    title: 'Ricevi subito il compenso',
    text: 'Ti versiamo una somma a fondo perduto, tua in ogni caso. Intanto lavoriamo per vendere la casa al prezzo che hai scelto, entro la scadenza.',
  },
] as const;

const gains = [
  {
    icon: BadgeEuro,
    text: `Da ${formatEuro(minRate)} a ${formatEuro(maxRate)} ogni ${formatEuro(100_000)} di valutazione, a fondo perduto: li tieni anche se la casa non viene venduta.`,
  },
  { icon: ShieldCheck, text: "Nessuna provvigione d'agenzia: sulla vendita non paghi alcuna commissione." },
  {
    icon: KeyRound,
    text: 'Pagamento anticipato in un’unica soluzione se ci lasci le chiavi, oppure mensile se le visite richiedono la tua presenza.',
  },
  { icon: CalendarClock, text: 'Un prezzo concordato fin da subito e una scadenza certa: sai quando e a quanto vendi.' },
] as const;

export default function HomePage() {
  usePageTitle(undefined);
  const { search } = useLocation();
  useEffect(() => captureSourceId(search), [search]);
  return (
    <>
      <VoiceWidget />
      <section aria-labelledby="hero-title" className="bg-gradient-to-b from-white to-brand-cream">
        <div className="mx-auto grid max-w-6xl items-start gap-10 px-4 py-10 sm:px-6 md:py-16 lg:grid-cols-[1.1fr_1fr]">
          <div className="space-y-6 lg:pt-6">
            <p className="inline-flex items-center gap-2 rounded-full bg-white px-3 py-1 text-sm font-semibold text-brand-orange-dark shadow-sm ring-1 ring-orange-200">
              <span aria-hidden="true" className="size-2 rounded-full bg-brand-orange" />
              Valutazione gratuita online
            </p>
            <h1 id="hero-title" className="text-3xl font-extrabold leading-tight tracking-tight sm:text-4xl">
              Ricevi da <span className="whitespace-nowrap text-brand-orange-dark">{formatEuro(minRate)}</span> a{' '}
              <span className="whitespace-nowrap text-brand-orange-dark">{formatEuro(maxRate)}</span> ogni{' '}
              <span className="whitespace-nowrap">{formatEuro(100_000)}</span> di valutazione della tua casa
            </h1>
            <p className="max-w-xl text-lg text-slate-700">
              Ci dai un&apos;opzione di acquisto sul tuo immobile e noi ti paghiamo subito, a fondo perduto. Nessuna
              provvigione d&apos;agenzia, nessun costo nascosto.
            </p>
            <ul className="space-y-2 text-slate-800">
              {OPTION_DURATIONS.map((m) => (
                <li key={m} className="flex items-center gap-2">
                  <CircleCheck aria-hidden="true" className="size-5 shrink-0 text-green-700" />
                  <span>
                    <strong>Opzione di {m} mesi</strong>: {formatEuro(FEE_RATE_PER_100K[m])} ogni{' '}
                    <span className="whitespace-nowrap">{formatEuro(100_000)}</span> di valore
                  </span>
                </li>
              ))}
              <li className="flex items-center gap-2">
                <CircleCheck aria-hidden="true" className="size-5 shrink-0 text-green-700" />
                <span>Zero provvigioni d&apos;agenzia</span>
              </li>
            </ul>
            <a href="#candidatura" className={buttonClass('primary', 'lg')}>
              Candida il tuo immobile
            </a>
          </div>
          <FeeSimulator />
        </div>
      </section>

      <section aria-labelledby="how-title" className="mx-auto max-w-6xl px-4 py-14 sm:px-6">
        <h2 id="how-title" className="text-center text-2xl font-bold sm:text-3xl">
          Come funziona
        </h2>
        <p className="mx-auto mt-3 max-w-2xl text-center text-slate-700">
          Tre passaggi, tutti online. Tu decidi prezzo e durata, noi ci occupiamo del resto.
        </p>
        <ol className="mt-10 grid gap-6 md:grid-cols-3">
          {steps.map(({ icon: Icon, title, text }, i) => (
            <li key={title}>
              <Card className="h-full">
                <CardContent className="space-y-3">
                  <div className="flex items-center gap-3">
                    <span
                      aria-hidden="true"
                      className="flex size-10 items-center justify-center rounded-full bg-brand-navy text-lg font-bold text-white"
                    >
                      {i + 1}
                    </span>
                    <Icon aria-hidden="true" className="size-6 text-brand-orange-dark" />
                  </div>
                  <h3 className="text-lg font-bold">
                    <span className="sr-only">Passo {i + 1}: </span>
                    {title}
                  </h3>
                  <p className="text-slate-700">{text}</p>
                </CardContent>
              </Card>
            </li>
          ))}
        </ol>

        <div className="mt-10 rounded-2xl border-2 border-brand-orange bg-brand-cream p-6 sm:p-8" data-testid="gains-box">
          <h3 className="text-xl font-bold sm:text-2xl">Cosa ci guadagni tu</h3>
          <ul className="mt-5 grid gap-4 md:grid-cols-2">
            {gains.map(({ icon: Icon, text }) => (
              <li key={text} className="flex gap-3">
                <Icon aria-hidden="true" className="mt-0.5 size-6 shrink-0 text-brand-orange-dark" />
                <span className="text-slate-800">{text}</span>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section
        id="candidatura"
        aria-labelledby="candidatura-title"
        className="scroll-mt-24 border-t border-slate-200 bg-white"
        data-testid="candidatura"
      >
        <div className="mx-auto max-w-3xl px-4 py-14 sm:px-6">
          <div className="mb-8 text-center">
            <h2 id="candidatura-title" className="text-2xl font-bold sm:text-3xl">
              Candida il tuo immobile
            </h2>
            <p className="mt-3 text-slate-700">
              Quattro passi: dove si trova, com&apos;è fatto, le sue caratteristiche e le foto. La valutazione è gratuita e
              i dati restano salvati su questo dispositivo finché non invii la candidatura.
            </p>
          </div>
          <WizardSection />
        </div>
      </section>
    </>
  );
}
