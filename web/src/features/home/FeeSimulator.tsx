import { useId, useState, type KeyboardEvent } from 'react';
import { PartyPopper } from 'lucide-react';
import { DEFAULT_DURATION, isOptionDuration, OPTION_DURATIONS, upfrontFee, type OptionDuration } from '@domain/fees';
import { formatEuro } from '@domain/format';
import { Card, CardContent, Select } from '@/components/ui';
import { cn } from '@/lib/cn';
import { chooseOptionDuration, useChosenOptionDuration } from '@/lib/option-duration-choice';
import { backspace, DIGIT_KEYS, pressKey, type KeypadKey } from './keypad';

const keyClass =
  'flex h-14 items-center justify-center rounded-xl border border-slate-200 bg-white text-xl font-semibold text-slate-900 shadow-sm ' +
  'transition hover:border-brand-orange hover:bg-brand-cream active:scale-[0.97] ' +
  'focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-navy focus-visible:ring-offset-2';

/** Home-page fee simulator: duration, keypad, and the up-front fee from the shared domain rule. */
export function FeeSimulator() {
  const ids = useId();
  // shared with the wizard below: the duration chosen here travels with the submission
  const months: OptionDuration = useChosenOptionDuration() ?? DEFAULT_DURATION;
  const setMonths = chooseOptionDuration;
  const [digits, setDigits] = useState('');
  const value = digits === '' ? 0 : Number(digits);
  const fee = upfrontFee(value, months);

  const press = (key: KeypadKey) => setDigits((current) => pressKey(current, key));

  // physical keyboard on the keypad: digits, Backspace, Escape/Delete to clear
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (/^\d$/.test(event.key)) {
      event.preventDefault();
      press(event.key as KeypadKey);
    } else if (event.key === 'Backspace') {
      event.preventDefault();
      setDigits(backspace);
    } else if (event.key === 'Escape' || event.key === 'Delete') {
      event.preventDefault();
      press('clear');
    }
  };

  const keys: { key: KeypadKey; label: string; aria: string }[] = [
    ...DIGIT_KEYS.map((d) => ({ key: d, label: d, aria: `Cifra ${d}` })),
    { key: '000', label: '000', aria: 'Aggiungi 000' },
    { key: '0', label: '0', aria: 'Cifra 0' },
    { key: 'clear', label: 'C', aria: 'Cancella (C)' },
  ];

  return (
    <Card className="overflow-hidden" data-testid="fee-simulator">
      <div className="bg-brand-navy px-6 py-4">
        <h2 id={`${ids}-title`} className="text-lg font-bold text-white">
          Calcola quanto ricevi
        </h2>
        <p className="text-sm text-slate-200">Scegli la durata e digita il valore a cui vuoi vendere.</p>
      </div>
      <CardContent className="space-y-5">
        <div className="space-y-1.5">
          <label htmlFor={`${ids}-duration`} className="block text-sm font-medium text-slate-800">
            Durata dell&apos;opzione
          </label>
          <Select
            id={`${ids}-duration`}
            data-testid="duration-select"
            value={months}
            onChange={(e) => {
              const n = Number(e.target.value);
              if (isOptionDuration(n)) setMonths(n);
            }}
          >
            {OPTION_DURATIONS.map((m) => (
              <option key={m} value={m}>
                {m} mesi
              </option>
            ))}
          </Select>
        </div>

        <div>
          <p id={`${ids}-display-label`} className="text-sm font-medium text-slate-800">
            Valore di vendita desiderato
          </p>
          <div
            aria-labelledby={`${ids}-display-label`}
            aria-live="polite"
            aria-atomic="true"
            data-testid="simulator-display"
            data-value={value}
            className={cn(
              'mt-1.5 rounded-xl border-2 border-slate-200 bg-slate-50 px-4 py-3 text-right text-3xl font-bold tabular-nums',
              value > 0 ? 'text-brand-navy' : 'text-slate-500',
            )}
          >
            {formatEuro(value)}
          </div>
        </div>

        <div
          role="group"
          aria-label="Tastierino numerico"
          onKeyDown={onKeyDown}
          className="grid grid-cols-3 gap-2"
          data-testid="keypad"
        >
          {keys.map(({ key, label, aria }) => (
            <button
              key={key}
              type="button"
              aria-label={aria}
              data-testid={`keypad-key-${key}`}
              onClick={() => press(key)}
              className={cn(keyClass, key === 'clear' && 'text-red-800 hover:border-red-300 hover:bg-red-50')}
            >
              {label}
            </button>
          ))}
        </div>

        <div aria-live="polite">
          {value > 0 ? (
            <div
              className="rounded-xl border border-green-200 bg-green-50 p-4 text-center"
              data-testid="simulator-result"
            >
              <p className="flex items-center justify-center gap-2 text-base font-bold text-green-800">
                <PartyPopper aria-hidden="true" className="size-4" />
                Riceverai subito
              </p>
              <p className="mt-1 text-4xl font-extrabold tabular-nums text-green-800" data-testid="simulator-result-amount">
                {formatEuro(fee)}
              </p>
              <p className="mt-1 text-sm font-medium text-green-900">a fondo perduto</p>
              <p className="mt-2 text-xs text-green-900">
                Opzione di {months} mesi su un valore di {formatEuro(value)}
              </p>
            </div>
          ) : (
            <p className="rounded-xl border border-dashed border-slate-300 p-4 text-center text-sm text-slate-600">
              Digita il valore desiderato per vedere quanto ricevi subito.
            </p>
          )}
        </div>
      </CardContent>
    </Card>
  );
}
