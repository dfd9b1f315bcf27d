import { useRef, useState, type ChangeEvent } from 'react';
import { toast } from 'sonner';
import { EMPTY_FILE_MESSAGE, fileBytesRefusal } from '@/lib/upload';
import { CSV_ONLY_MESSAGE, isCsvFileName, semesterFromFileName } from './schemas';

/**
 * The CSV chosen on the import page (picked or dropped): refused unless it ends in .csv
 * (spec 001) and its first bytes are text (not a binary renamed .csv), flagged when empty,
 * and its name's semester handed to `onSemester`.
 */
export function useCsvFile(onSemester: (semester: string) => void) {
  const inputRef = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [error, setError] = useState<string | undefined>();
  /** the semester taken from the file name, if any */
  const [prefilled, setPrefilled] = useState<string | null>(null);
  /** the last file chosen: a late byte check of an earlier one changes nothing */
  const latest = useRef<File | null>(null);

  const clearInput = () => {
    if (inputRef.current) inputRef.current.value = '';
  };

  const pick = (picked: File | null | undefined) => {
    if (!picked) return;
    latest.current = picked;
    if (!isCsvFileName(picked.name)) {
      setFile(null);
      setError(CSV_ONLY_MESSAGE);
      clearInput();
      toast.error('Errore', { description: CSV_ONLY_MESSAGE, id: 'omi-csv-only' });
      return;
    }
    setFile(picked);
    setError(picked.size === 0 ? EMPTY_FILE_MESSAGE : undefined);
    if (picked.size > 0) {
      void fileBytesRefusal(picked, 'text/csv').then((refusal) => {
        if (!refusal || latest.current !== picked) return;
        setFile(null);
        setError(refusal);
        clearInput();
        toast.error('Errore', { description: refusal, id: 'omi-csv-only' });
      }, () => undefined); // the checker could not be loaded: the upload checks the bytes again before sending
    }
    const semester = semesterFromFileName(picked.name);
    if (semester) onSemester(semester);
    setPrefilled(semester ?? null);
  };

  const onChange = (e: ChangeEvent<HTMLInputElement>) => pick(e.target.files?.[0]);

  const onDropFile = (dropped: File) => {
    pick(dropped);
    // keep the input in step with what was dropped
    if (inputRef.current && isCsvFileName(dropped.name)) {
      const dt = new DataTransfer();
      dt.items.add(dropped);
      inputRef.current.files = dt.files;
    }
  };

  /** After an import: no file chosen any more. */
  const reset = () => {
    setFile(null);
    clearInput();
  };

  return { inputRef, file, error, prefilled, onChange, onDropFile, reset };
}
