/**
 * What the identity document must say (functions/domain/identity-document.ts): the rules on
 * hand-written lines (fast), the Rekognition adapter with a stubbed client, then the local reader (real tesseract.js, one worker for the
 * file) on synthetic CIE images of test/support/id-cards.ts: a front, a back with its TD1
 * MRZ, a back with a broken check digit, an expired back, and a photo without text.
 */
import { readFileSync } from 'node:fs';
import { DetectTextCommand, RekognitionClient } from '@aws-sdk/client-rekognition';
import { afterAll, beforeAll, describe, expect, it, vi, type MockInstance } from 'vitest';
import {
  DOCUMENT_TEXT_MESSAGES as M,
  documentTextRefusal,
  findMrz,
  matchKey,
  mrzExpiryDate,
  type DocumentTextInput,
} from '../../functions/domain/identity-document';
import { resetConfig } from '../../functions/lib/config';
import { DocumentImageError, documentTextReader } from '../../functions/lib/document-text/document-text';
import { closeLocalTextReader, linesOf } from '../../functions/lib/document-text/local-text-reader';
import { orderLines, REKOGNITION_MAX_BYTES, rekognitionTextReader } from '../../functions/lib/document-text/rekognition-text-reader';
import { icaoCheckDigit, idCardBack, idCardFront, td1Mrz, type MrzFields } from '../support/id-cards';

const TODAY = '2026-11-27';
const ROSSI: MrzFields = { surname: 'Rossi', name: 'Mario', number: 'CA10234BD', birthDate: '1980-08-12', expiryDate: '2031-08-12', sex: 'M' };

/** the lines of a CIE front as tesseract reads test/support/id-cards.ts's */
const FRONT = [
  'REPUBBLICA ITALIANA CA10234BD',
  'CARTA DI IDENTITÀ / IDENTITY CARD',
  'COMUNE DI / MUNICIPALITY',
  'ROMA',
  'COGNOME / SURNAME',
  'ROSSI',
  'NOME / NAME',
  'MARIO',
  'M ROMA (RM) 12.08.1980',
  '15.03.2021 12.08.2031',
];
const BACK = ['RSSMRA80M12H501X', 'VIA DEL CORSO 1, ROMA (RM)', ...td1Mrz(ROSSI)];

const check = (o: Partial<DocumentTextInput>) =>
  documentTextRefusal({ lines: [...FRONT, ...BACK], documentNumber: 'CA10234BD', surnames: ['Rossi'], today: TODAY, ...o });

/** an MRZ line with the character at `index` replaced */
const withChar = (line: string, index: number, c: string) => line.slice(0, index) + c + line.slice(index + 1);

// the ICAO 9303 specimens (parts 4 to 6), with ITA for the fictional state UTO that mrz refuses
// (no check digit covers the states)
const specimen = (lines: string[]) => lines.map((l) => l.replace(/UTO/g, 'ITA'));
const TD1_SPECIMEN = specimen(['I<UTOD231458907<<<<<<<<<<<<<<<', '7408122F1204159UTO<<<<<<<<<<<6', 'ERIKSSON<<ANNA<MARIA<<<<<<<<<<']);
const TD2_SPECIMEN = specimen(['I<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<', 'D231458907UTO7408122F1204159<<<<<<<6']);
const TD3_SPECIMEN = specimen(['P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<', 'L898902C36UTO7408122F1204159ZE184226B<<<<<10']);

describe('matchKey', () => {
  it('uppercases, drops accents and everything but A-Z 0-9', () => {
    expect(matchKey("Carta d'Identità n. ca 0123")).toBe('CARTAD1DENT1TANCA0123');
    expect(matchKey('Niccolò Çelik-Ñuñez')).toBe('N1CC0L0CEL1KNUNEZ');
  });

  it('folds O into 0 and I (and |) into 1, on both sides', () => {
    expect(matchKey('CA1O234BD')).toBe(matchKey('CAI0234BD'));
    expect(matchKey('R0SS1')).toBe(matchKey('Rossi'));
    expect(matchKey('|')).toBe('1');
  });

  it('keeps L apart from 1 and I: short surnames do not turn into digits of a date', () => {
    expect(matchKey('GALLI')).toBe('GALL1');
    expect(matchKey('LI')).not.toBe(matchKey('11'));
    expect(matchKey('L')).not.toBe(matchKey('I'));
  });
});

describe('DOCUMENT_TEXT_MESSAGES', () => {
  it('has an Italian reason per refusal', () => {
    expect(M).toEqual({
      noText: 'Sul documento non si legge alcun testo: fotografa il documento intero, ben illuminato',
      mrzInvalid: 'La zona a lettura ottica del documento non è valida',
      mrzExpired: 'Il documento è scaduto',
      numberNotFound: 'Il numero del documento indicato non si legge sul documento: controlla il numero o rifai la foto con più luce',
      mrzOtherDocument: 'Il retro caricato è di un altro documento: il numero della zona a lettura ottica non è quello indicato',
      surnameNotFound: 'Il cognome non si legge sul documento: fotografa il documento intero, ben leggibile',
    });
  });
});

describe('findMrz', () => {
  it('finds and parses the TD1 zone of a CIE back, with its check digits', () => {
    const mrz = findMrz(BACK)!;
    expect(mrz.lines).toEqual(td1Mrz(ROSSI));
    expect(mrz.result).toMatchObject({ format: 'TD1', valid: true, documentNumber: 'CA10234BD' });
    expect(mrz.result.fields).toMatchObject({ lastName: 'ROSSI', firstName: 'MARIO', expirationDate: '310812', issuingState: 'ITA' });
  });

  it('knows the ICAO specimens of TD1, TD2 and TD3', () => {
    expect(findMrz(['some text', ...TD1_SPECIMEN])?.result).toMatchObject({ format: 'TD1', valid: true });
    expect(findMrz(TD2_SPECIMEN)?.result).toMatchObject({ format: 'TD2', valid: true });
    expect(findMrz(['PASSAPORTO', ...TD3_SPECIMEN, 'more'])?.result).toMatchObject({ format: 'TD3', valid: true, documentNumber: 'L898902C3' });
  });

  it('is null on text without a zone, or with only part of it', () => {
    expect(findMrz(FRONT)).toBeNull();
    expect(findMrz([])).toBeNull();
    expect(findMrz(TD1_SPECIMEN.slice(0, 2))).toBeNull();
    expect(findMrz(['CODICE FISCALE RSSMRA80M12H501X <<', 'ROSSI<<MARIO'])).toBeNull();
  });

  it("normalises OCR's spellings of the filler: spaces, «, K inside or ending a filler run", () => {
    const [l1, l2, l3] = td1Mrz(ROSSI);
    const read = [l1.replace('<<<<<<', '<< «<< '), l2.replace('<<<<', '<K<<'), l3.replace(/<<<<<<$/, 'KKKKKK')];
    const mrz = findMrz(read)!;
    expect(mrz.lines).toEqual([l1, l2, l3]);
    expect(mrz.result.valid).toBe(true);
  });

  it('fits a filler run that OCR shortened or lengthened, and the check digits still decide', () => {
    const [l1, l2, l3] = td1Mrz(ROSSI);
    const fitted = findMrz([l1.slice(0, 28), l2.replace('<<<<', '<<<<<<'), l3.slice(0, 27)])!;
    expect(fitted.lines).toEqual([l1, l2, l3]);
    expect(fitted.result.valid).toBe(true);
  });

  it('never invents: a K of a name stays, a wrong check digit stays wrong', () => {
    const koch = td1Mrz({ ...ROSSI, surname: 'Koch', name: 'Kai' });
    expect(findMrz(koch)!.result.fields).toMatchObject({ lastName: 'KOCH', firstName: 'KAI' });
    const [l1, l2, l3] = td1Mrz(ROSSI);
    const wrong = withChar(l1, 14, l1[14] === '9' ? '0' : String(Number(l1[14]) + 1));
    expect(findMrz([wrong, l2, l3])!.result.valid).toBe(false);
  });
});

describe('mrzExpiryDate', () => {
  it('reads YYMMDD in this century, unless that is more than 50 years away', () => {
    expect(mrzExpiryDate('310812', TODAY)).toBe('2031-08-12');
    expect(mrzExpiryDate('050101', TODAY)).toBe('2005-01-01');
    expect(mrzExpiryDate('990101', TODAY)).toBe('1999-01-01');
  });
});

describe('documentTextRefusal', () => {
  it('passes a document with text, a valid MRZ, the number and the surname', () => {
    expect(check({})).toBeNull();
    expect(check({ lines: FRONT })).toBeNull();
    expect(check({ lines: BACK })).toBeNull();
  });

  it('refuses an image without (enough) text', () => {
    expect(check({ lines: [] })).toEqual({ code: 'noText', message: M.noText });
    expect(check({ lines: ['£', '— &', '4 |'] })).toEqual({ code: 'noText', message: M.noText });
  });

  it('refuses an MRZ with a broken check digit, before looking for number and surname', () => {
    const [l1, l2, l3] = td1Mrz(ROSSI);
    const broken = withChar(l2, 6, l2[6] === '9' ? '0' : String(Number(l2[6]) + 1));
    expect(check({ lines: [...FRONT, l1, broken, l3] })).toEqual({ code: 'mrzInvalid', message: M.mrzInvalid });
    expect(check({ lines: [l1, broken, l3], documentNumber: 'XX99999XX' })).toMatchObject({ code: 'mrzInvalid' });
  });

  it('refuses an MRZ expired before today; the day of expiry still passes', () => {
    const expired = td1Mrz({ ...ROSSI, expiryDate: '2026-11-26' });
    expect(check({ lines: [...FRONT, ...expired] })).toEqual({ code: 'mrzExpired', message: M.mrzExpired });
    expect(check({ lines: [...FRONT, ...td1Mrz({ ...ROSSI, expiryDate: TODAY })] })).toBeNull();
  });

  it('finds the typed number anywhere in the text, spaces, case, O/0 and I/1 aside', () => {
    for (const documentNumber of ['CA10234BD', 'ca 10234 bd', 'CA1O234BD', 'CAI0234BD', 'C A 1 O 2 3 4 B D']) {
      expect(check({ documentNumber, lines: FRONT })).toBeNull();
    }
    // read with the confusions, typed clean
    expect(check({ documentNumber: 'CA10234BD', lines: FRONT.map((l) => l.replace('CA10234BD', 'CAIO234BD')) })).toBeNull();
    // on the back only (the MRZ's document number)
    expect(check({ documentNumber: 'CA10234BD', lines: BACK })).toBeNull();
  });

  it("refuses the back of another card: the front's number typed, a valid MRZ of another document (mrzOtherDocument)", () => {
    // an expired card's front, the back of someone else's valid card
    const otherBack = td1Mrz({ ...ROSSI, number: 'CB55555XY', expiryDate: '2032-01-01' });
    expect(check({ lines: [...FRONT, ...otherBack] })).toEqual({ code: 'mrzOtherDocument', message: M.mrzOtherDocument });
    // the card's own back passes
    expect(check({ lines: [...FRONT, ...td1Mrz(ROSSI)] })).toBeNull();
  });

  it('refuses a number not on the document, or too short to be one', () => {
    expect(check({ documentNumber: 'CA10234BE' })).toEqual({ code: 'numberNotFound', message: M.numberNotFound });
    expect(check({ documentNumber: 'AB12345' })).toMatchObject({ code: 'numberNotFound' });
    // on the card, but four characters are in any text
    expect(check({ documentNumber: '1980' })).toMatchObject({ code: 'numberNotFound' });
  });

  it('finds a surname as a whole word, O/0 and I/1 aside, or in the MRZ', () => {
    expect(check({ surnames: ['ROSSI'] })).toBeNull();
    expect(check({ surnames: ['R0SS1'] })).toBeNull();
    expect(check({ lines: FRONT.map((l) => l.replace('ROSSI', 'R0SS|')), surnames: ['Rossi'] })).toBeNull();
    // L is not folded into 1 (matchKey): a lowercase l read for the I is a miss
    expect(check({ lines: FRONT.map((l) => l.replace('ROSSI', 'R0SSl')), surnames: ['Rossi'] })).toMatchObject({ code: 'surnameNotFound' });
    // a part of a word is not the surname
    expect(check({ surnames: ['Ross'] })).toEqual({ code: 'surnameNotFound', message: M.surnameNotFound });
    expect(check({ surnames: ['Bianchi'] })).toEqual({ code: 'surnameNotFound', message: M.surnameNotFound });
    // the MRZ's surname, when only the zone has it and OCR read its fillers as K
    const [l1, l2, l3] = td1Mrz({ ...ROSSI, surname: 'Di Maio' });
    const lines = [...FRONT.filter((l) => l !== 'ROSSI'), l1, l2, l3.replace(/<+$/, (run) => 'K'.repeat(run.length))];
    expect(lines.at(-1)).toBe('DI<MAIO<<MARIOKKKKKKKKKKKKKKKK');
    expect(check({ lines, surnames: ['Di Maio'] })).toBeNull();
    expect(check({ lines: lines.slice(0, -3), surnames: ['Di Maio'] })).toMatchObject({ code: 'surnameNotFound' });
  });

  it('accepts any word of the acceptable surnames, ignoring one-letter words and particles', () => {
    // a co-owner's full name: any of its words
    expect(check({ surnames: ['Mario', 'Bianchi'] })).toBeNull();
    // 'DI' is printed on every card ('COMUNE DI'): 'DI MAIO' needs 'MAIO'
    expect(check({ surnames: ['Di Maio'] })).toMatchObject({ code: 'surnameNotFound' });
    expect(check({ surnames: ['Di Maio'], lines: FRONT.map((l) => l.replace('ROSSI', 'DI MAIO')) })).toBeNull();
    expect(check({ surnames: ['Di Maio'], lines: td1Mrz({ ...ROSSI, surname: 'Di Maio' }) })).toBeNull();
    // only particles: they count
    expect(check({ surnames: ['Li'], lines: [...FRONT.map((l) => l.replace('ROSSI', 'LI'))] })).toBeNull();
    // one letter is no surname: "D'Amico" is found by AMICO
    expect(check({ surnames: ["D'Amico"], lines: [...FRONT.map((l) => l.replace('ROSSI', "D'AMICO"))] })).toBeNull();
    expect(check({ surnames: ["D'Amico"] })).toMatchObject({ code: 'surnameNotFound' });
  });

  it('runs the rules in order: text, MRZ, number, surname', () => {
    const expired = td1Mrz({ ...ROSSI, expiryDate: '2020-01-01' });
    expect(check({ lines: ['ROSSI'], documentNumber: 'X', surnames: ['Bianchi'] })).toMatchObject({ code: 'noText' });
    expect(check({ lines: expired, documentNumber: 'XX99999XX', surnames: ['Bianchi'] })).toMatchObject({ code: 'mrzExpired' });
    expect(check({ documentNumber: 'XX99999XX', surnames: ['Bianchi'] })).toMatchObject({ code: 'numberNotFound' });
  });
});

describe("the Rekognition adapter's line order", () => {
  const line = (text: string, top: number, left: number, height = 0.05) => ({ Type: 'LINE' as const, DetectedText: text, Geometry: { BoundingBox: { Top: top, Left: left, Height: height, Width: 0.2 } } });

  it('keeps LINEs only, top to bottom, left to right on a row whose tops differ a little', () => {
    const detections = [
      line('ROSSI', 0.4, 0.3),
      { Type: 'WORD' as const, DetectedText: 'ROSSI', Geometry: { BoundingBox: { Top: 0.4, Left: 0.3, Height: 0.05 } } },
      line('CA10234BD', 0.051, 0.7),
      line('REPUBBLICA ITALIANA', 0.06, 0.05),
      line('COGNOME / SURNAME', 0.33, 0.3),
      line('  ', 0.5, 0.1),
    ];
    expect(orderLines(detections)).toEqual(['REPUBBLICA ITALIANA', 'CA10234BD', 'COGNOME / SURNAME', 'ROSSI']);
  });
});

describe('the Rekognition adapter', () => {
  beforeAll(() => {
    vi.stubEnv('TABLE_NAME', 'unit');
    resetConfig();
  });
  afterAll(() => {
    vi.restoreAllMocks();
    vi.unstubAllEnvs();
    resetConfig();
  });

  const failWith = (name: string) => Object.assign(new Error(name), { name });

  it('sends the bytes to DetectText and answers the ordered lines; maps image errors', async () => {
    const send = vi.spyOn(RekognitionClient.prototype, 'send') as unknown as MockInstance<(c: DetectTextCommand) => Promise<unknown>>;
    send.mockResolvedValueOnce({
      TextDetections: [
        { Type: 'LINE', DetectedText: 'ROSSI', Geometry: { BoundingBox: { Top: 0.4, Left: 0.3, Height: 0.05 } } },
        { Type: 'LINE', DetectedText: 'REPUBBLICA ITALIANA', Geometry: { BoundingBox: { Top: 0.05, Left: 0.05, Height: 0.05 } } },
      ],
    });
    const reader = rekognitionTextReader();
    const image = Uint8Array.from([0xff, 0xd8, 0xff]);
    expect(await reader.readText(image)).toEqual({ lines: ['REPUBBLICA ITALIANA', 'ROSSI'] });
    expect(send.mock.calls[0]![0]).toBeInstanceOf(DetectTextCommand);
    expect(send.mock.calls[0]![0].input).toEqual({ Image: { Bytes: image } });

    send.mockRejectedValueOnce(failWith('InvalidImageFormatException'));
    await expect(reader.readText(image)).rejects.toMatchObject({ name: 'DocumentImageError', problem: 'unreadable' });
    send.mockRejectedValueOnce(failWith('ImageTooLargeException'));
    await expect(reader.readText(image)).rejects.toMatchObject({ name: 'DocumentImageError', problem: 'tooLarge' });
    await expect(reader.readText(new Uint8Array(REKOGNITION_MAX_BYTES + 1))).rejects.toMatchObject({ problem: 'tooLarge' });
    send.mockRejectedValueOnce(failWith('ThrottlingException'));
    await expect(reader.readText(image)).rejects.toMatchObject({ name: 'ThrottlingException' });
    expect(send).toHaveBeenCalledTimes(4);
  });
});

describe("the local reader's confident words", () => {
  const word = (text: string, confidence: number) => ({ text, confidence });

  it('drops words read below the confidence floor, but keeps codes and MRZ lines', () => {
    const page = {
      blocks: [
        {
          paragraphs: [
            {
              lines: [
                { text: 'REPUBBLICA ITALIANA CA10234BD\n', words: [word('REPUBBLICA', 96), word('ITALIANA', 96), word('CA10234BD', 51)] },
                { text: 'ROSSI è Ara\n', words: [word('ROSSI', 96), word('è', 40), word('Ara', 35)] },
                { text: '£ —', words: [word('£', 30), word('—', 20)] },
                { text: 'ROSSI<<MARIO<<<<<<<<<<<<<<<<<<\n', words: [word('ROSSI<<MARIO<<<<<<<<<<<<<<<<<<', 27)] },
              ],
            },
          ],
        },
      ],
    };
    expect(linesOf(page)).toEqual(['REPUBBLICA ITALIANA CA10234BD', 'ROSSI', 'ROSSI<<MARIO<<<<<<<<<<<<<<<<<<']);
  });
});

// real OCR: tesseract.js with the ita+eng data of node_modules, one worker for the file
describe('the local reader on synthetic CIE photos', { timeout: 60_000 }, () => {
  const read: Record<'front' | 'back' | 'brokenBack' | 'expiredBack' | 'photo', string[]> = { front: [], back: [], brokenBack: [], expiredBack: [], photo: [] };
  const printed: Record<'brokenBack' | 'expiredBack', string[]> = { brokenBack: [], expiredBack: [] };

  beforeAll(async () => {
    vi.stubEnv('TABLE_NAME', 'unit');
    vi.stubEnv('FACE_MATCHER', 'local');
    resetConfig();
    const [l1, l2, l3] = td1Mrz(ROSSI);
    // the birth date's check digit, off by one
    const broken = withChar(l2, 6, String((Number(icaoCheckDigit(l2.slice(0, 6))) + 1) % 10));
    printed.brokenBack = [l1, broken, l3];
    printed.expiredBack = td1Mrz({ ...ROSSI, expiryDate: '2025-03-01' });
    const images = {
      front: await idCardFront({ surname: 'Rossi', name: 'Mario', number: ROSSI.number, portrait: readFileSync(new URL('../fixtures/faces/person-a.jpg', import.meta.url)) }),
      back: await idCardBack(ROSSI),
      brokenBack: await idCardBack({ ...ROSSI, mrz: [l1, broken, l3] }),
      expiredBack: await idCardBack({ ...ROSSI, expiryDate: '2025-03-01' }),
      photo: readFileSync(new URL('../fixtures/faces/person-a.jpg', import.meta.url)),
    };
    const reader = await documentTextReader();
    for (const [k, image] of Object.entries(images)) read[k as keyof typeof read] = (await reader.readText(image)).lines;
  }, 120_000);

  afterAll(async () => {
    await closeLocalTextReader();
    vi.unstubAllEnvs();
    resetConfig();
  });

  it('reads the front: the number and the surname are found, tolerant to O/0 and I/1', () => {
    expect(read.front).toEqual(expect.arrayContaining(['ROSSI', 'MARIO']));
    expect(read.front.join(' ')).toContain('REPUBBLICA ITALIANA');
    const front = (o: Partial<DocumentTextInput>) => documentTextRefusal({ lines: read.front, documentNumber: 'CA10234BD', surnames: ['Rossi'], today: TODAY, ...o });
    expect(front({})).toBeNull();
    expect(front({ documentNumber: 'ca1o234bd' })).toBeNull();
    expect(front({ documentNumber: 'CAI0234BD', surnames: ['R0SSI'] })).toBeNull();
    expect(front({ documentNumber: 'CA10234BE' })).toEqual({ code: 'numberNotFound', message: M.numberNotFound });
    expect(front({ surnames: ['Bianchi'] })).toEqual({ code: 'surnameNotFound', message: M.surnameNotFound });
  });

  it('reads the back: the MRZ exactly, valid, with the number and the surname', () => {
    expect(read.back.slice(-3)).toEqual(td1Mrz(ROSSI));
    expect(findMrz(read.back)?.result).toMatchObject({ valid: true, documentNumber: 'CA10234BD', fields: { lastName: 'ROSSI' } });
    expect(documentTextRefusal({ lines: [...read.front, ...read.back], documentNumber: 'CA10234BD', surnames: ['Rossi'], today: TODAY })).toBeNull();
    expect(documentTextRefusal({ lines: read.back, documentNumber: 'CA10234BD', surnames: ['Rossi'], today: TODAY })).toBeNull();
  });

  it('refuses a back whose MRZ has a broken check digit, and an expired one', () => {
    // read as printed: the refusal is the card's, not an OCR error
    expect(findMrz(read.brokenBack)?.lines).toEqual(printed.brokenBack);
    expect(findMrz(read.expiredBack)?.lines).toEqual(printed.expiredBack);
    expect(documentTextRefusal({ lines: [...read.front, ...read.brokenBack], documentNumber: 'CA10234BD', surnames: ['Rossi'], today: TODAY })).toEqual({ code: 'mrzInvalid', message: M.mrzInvalid });
    expect(documentTextRefusal({ lines: [...read.front, ...read.expiredBack], documentNumber: 'CA10234BD', surnames: ['Rossi'], today: TODAY })).toEqual({ code: 'mrzExpired', message: M.mrzExpired });
  });

  it('refuses a photo without text', () => {
    expect(documentTextRefusal({ lines: read.photo, documentNumber: 'CA10234BD', surnames: ['Rossi'], today: TODAY })).toEqual({ code: 'noText', message: M.noText });
  });

  it('throws DocumentImageError on bytes that are no image', async () => {
    const reader = await documentTextReader();
    await expect(reader.readText(Buffer.from('not an image at all'))).rejects.toBeInstanceOf(DocumentImageError);
  });
});
