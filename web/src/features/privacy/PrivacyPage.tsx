import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { ArrowLeft } from 'lucide-react';
import { formatDateLong } from '@domain/format';
import { useConfig } from '@/lib/config';
import { usePageTitle } from '@/lib/use-page-title';

function Section({ n, title, children }: { n: number; title: string; children: ReactNode }) {
  const id = `sezione-${n}`;
  return (
    <section aria-labelledby={id} className="space-y-3">
      <h2 id={id} className="text-xl font-bold">
        {n}. {title}
      </h2>
      <div className="space-y-3 leading-relaxed text-slate-800">{children}</div>
    </section>
  );
}

const list = 'list-disc space-y-1.5 pl-6';

/** /privacy: privacy notice under articles 13 and 14 of Regulation (EU) 2016/679 (GDPR). */
export default function PrivacyPage() {
  usePageTitle('Informativa sulla Privacy');
  const { company } = useConfig();
  const contact = company.email ? (
    <a href={`mailto:${company.email}`} className="font-medium text-brand-navy underline underline-offset-2">
      {company.email}
    </a>
  ) : null;

  return (
    <article className="mx-auto w-full max-w-3xl px-4 py-10 sm:px-6">
      <Link
        to="/"
        className="inline-flex items-center gap-1.5 rounded font-medium text-brand-navy hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-navy"
      >
        <ArrowLeft aria-hidden="true" className="size-4" />
        Torna alla Home
      </Link>
      <h1 className="mt-6 text-3xl font-bold">Informativa sulla Privacy</h1>
      <p className="mt-2 text-sm text-slate-600" data-testid="privacy-updated">
        Ultimo aggiornamento: {formatDateLong(new Date())}
      </p>
      <p className="mt-6 leading-relaxed text-slate-800">
        La presente informativa descrive come {company.name} tratta i dati personali di chi visita questo sito, richiede
        una valutazione gratuita del proprio immobile, si registra come venditore o come agente immobiliare, ai sensi
        degli articoli 13 e 14 del Regolamento (UE) 2016/679 (&quot;GDPR&quot;) e del D.Lgs. 196/2003 come modificato dal
        D.Lgs. 101/2018.
      </p>

      <div className="mt-10 space-y-10">
        <Section n={1} title="Titolare del trattamento">
          <p>
            Il titolare del trattamento è <strong>{company.name}</strong>, con sede in {company.address}, P.IVA{' '}
            {company.vatNumber}
            {contact && <>, contattabile all&apos;indirizzo {contact}</>}.
          </p>
        </Section>

        <Section n={2} title="Dati raccolti">
          <p>Trattiamo le seguenti categorie di dati personali:</p>
          <ul className={list}>
            <li>dati di contatto: nome, cognome, indirizzo email, numero di telefono;</li>
            <li>
              dati dell&apos;immobile: indirizzo, caratteristiche, superficie, stato, valore desiderato, fotografie e video
              che carichi;
            </li>
            <li>dati dell&apos;account: credenziali di accesso (la password è conservata solo in forma cifrata), tipo di utente;</li>
            <li>
              dati di identificazione del venditore e dei comproprietari: documento d&apos;identità, codice fiscale e foto
              del volto, usata esclusivamente per confrontarla con la foto del documento;
            </li>
            <li>deleghe e documenti firmati relativi all&apos;immobile e all&apos;opzione di acquisto;</li>
            <li>dati tecnici di navigazione (indirizzo IP, log di accesso) necessari al funzionamento e alla sicurezza del sito.</li>
          </ul>
        </Section>

        <Section n={3} title="Finalità e base giuridica del trattamento">
          <ul className={list}>
            <li>
              fornire la valutazione gratuita dell&apos;immobile e rispondere alla tua candidatura: esecuzione di misure
              precontrattuali richieste dall&apos;interessato (art. 6.1.b GDPR);
            </li>
            <li>
              stipulare e gestire l&apos;opzione di acquisto, le deleghe e i rapporti con gli agenti immobiliari:
              esecuzione del contratto (art. 6.1.b GDPR);
            </li>
            <li>
              verificare l&apos;identità del venditore tramite confronto tra la foto del volto e quella del documento:
              consenso esplicito (art. 9.2.a GDPR), revocabile in ogni momento;
            </li>
            <li>adempiere agli obblighi di legge fiscali, contabili e antiriciclaggio: obbligo legale (art. 6.1.c GDPR);</li>
            <li>
              garantire la sicurezza del servizio e prevenire abusi: legittimo interesse del titolare (art. 6.1.f GDPR).
            </li>
          </ul>
          <p>Non effettuiamo profilazione né prendiamo decisioni basate unicamente su trattamenti automatizzati.</p>
        </Section>

        <Section n={4} title="Comunicazione dei dati">
          <p>I dati possono essere comunicati, nei limiti strettamente necessari alle finalità indicate, a:</p>
          <ul className={list}>
            <li>agenti immobiliari incaricati, solo per gli immobili loro assegnati e solo per i dati necessari alla vendita;</li>
            <li>fornitori di servizi cloud, di posta elettronica e di pagamento, nominati responsabili del trattamento (art. 28 GDPR);</li>
            <li>professionisti (notai, consulenti fiscali e legali) e pubbliche amministrazioni per le pratiche catastali e urbanistiche da te delegate;</li>
            <li>autorità competenti, quando richiesto dalla legge.</li>
          </ul>
          <p>I dati non sono diffusi né venduti a terzi.</p>
        </Section>

        <Section n={5} title="Conservazione dei dati">
          <p>
            I dati delle richieste di valutazione che non si concludono con un&apos;opzione di acquisto sono conservati per
            24 mesi dall&apos;ultimo contatto. I dati relativi a opzioni di acquisto e contratti sono conservati per 10 anni
            dalla loro conclusione, come previsto dalla normativa civilistica e fiscale. Le immagini del volto e dei
            documenti sono conservate per la durata della pratica e cancellate al suo termine, salvo obblighi di legge.
            Puoi eliminare il tuo account in qualsiasi momento dall&apos;area riservata.
          </p>
        </Section>

        <Section n={6} title="Trasferimento dei dati">
          <p>
            I dati sono conservati in database e archivi cloud situati nell&apos;Unione Europea. Qualora un fornitore dovesse
            trattarli al di fuori dello Spazio Economico Europeo, il trasferimento avverrà solo verso Paesi con decisione di
            adeguatezza della Commissione Europea o sulla base delle clausole contrattuali standard (artt. 45 e 46 GDPR).
          </p>
        </Section>

        <Section n={7} title="Diritti dell'interessato">
          <p>In qualsiasi momento puoi esercitare i diritti previsti dagli articoli 15-22 del GDPR:</p>
          <ul className={list}>
            <li>accesso ai tuoi dati e copia degli stessi;</li>
            <li>rettifica dei dati inesatti e integrazione di quelli incompleti;</li>
            <li>cancellazione (&quot;diritto all&apos;oblio&quot;) e limitazione del trattamento;</li>
            <li>portabilità dei dati in un formato strutturato e leggibile da dispositivo automatico;</li>
            <li>opposizione al trattamento basato sul legittimo interesse;</li>
            <li>revoca del consenso, senza pregiudicare la liceità del trattamento svolto prima della revoca.</li>
          </ul>
          <p>
            Hai inoltre il diritto di proporre reclamo al Garante per la protezione dei dati personali (www.garanteprivacy.it).
          </p>
        </Section>

        <Section n={8} title="Sicurezza dei dati">
          <p>
            Adottiamo misure tecniche e organizzative adeguate al rischio: connessioni cifrate (HTTPS), cifratura dei dati
            archiviati, accesso ai documenti solo tramite collegamenti temporanei, autenticazione degli utenti, accesso ai
            dati limitato al personale autorizzato e registrazione degli accessi. I documenti d&apos;identità e le immagini
            del volto sono visibili solo all&apos;interessato e agli amministratori incaricati.
          </p>
        </Section>

        <Section n={9} title="Modifiche all'informativa">
          <p>
            Potremo aggiornare questa informativa per adeguarla a modifiche normative o del servizio. La versione in vigore
            è sempre pubblicata su questa pagina con la data dell&apos;ultimo aggiornamento; in caso di modifiche
            sostanziali ti informeremo via email.
          </p>
        </Section>

        <Section n={10} title="Contatti">
          <p>
            Per esercitare i tuoi diritti o per qualsiasi domanda sul trattamento dei dati personali puoi scrivere a{' '}
            {company.name}, {company.address}
            {contact && <>, oppure all&apos;indirizzo email {contact}</>}. Ti risponderemo entro 30 giorni.
          </p>
        </Section>
      </div>
    </article>
  );
}
