import { describe, expect, it } from 'vitest';
import {
  coOwnerBadge,
  fiscalCodeCheckChar,
  isValidFiscalCode,
  fiscalCodeFitsName,
  givenNameCode,
  surnameCode,
  normalizeFiscalCode,
  onboardingState,
  ownershipShares,
  shareTotal,
  shareWarning,
  sharesComplete,
  signedUploadExtension,
  type OnboardingFacts,
} from '../../functions/domain/onboarding/rules';
import { generateDelegationsSchema, replaceCoOwnersSchema } from '../../functions/domain/onboarding/schemas';
import { delegationDocument } from '../../functions/domain/onboarding/delegation-document';
import { coOwnerKycUrl, renderCoOwnerInvitation } from '../../functions/domain/onboarding/co-owner-email';

describe('co-owner shares', () => {
  it('totals to hundredths and accepts exactly 100', () => {
    expect(shareTotal([{ share: 33.33 }, { share: 33.33 }, { share: 33.34 }])).toBe(100);
    expect(shareTotal([{ share: 0.1 }, { share: 0.2 }])).toBe(0.3);
    expect(sharesComplete([{ share: 50 }, { share: 50 }])).toBe(true);
    expect(sharesComplete([{ share: 60 }, { share: 50 }])).toBe(false);
    expect(sharesComplete([{ share: 100 }, { share: 0 }])).toBe(false);
    expect(sharesComplete([])).toBe(false);
  });

  it("warns with the spec's text when the total is not 100", () => {
    expect(shareWarning([{ share: 50 }, { share: 30 }])).toBe('La somma delle quote è 80% (dovrebbe essere 100%)');
    expect(shareWarning([{ share: 50 }, { share: 30.5 }])).toBe('La somma delle quote è 80,5% (dovrebbe essere 100%)');
    expect(shareWarning([{ share: 70 }, { share: 30 }])).toBeNull();
  });

  it('badges: Verificato over Invito inviato', () => {
    expect(coOwnerBadge({ invitedAt: null, verifiedAt: null })).toBeNull();
    expect(coOwnerBadge({ invitedAt: '2026-01-01T00:00:00Z' })).toBe('Invito inviato');
    expect(coOwnerBadge({ invitedAt: '2026-01-01T00:00:00Z', verifiedAt: '2026-01-02T00:00:00Z' })).toBe('Verificato');
  });

  it('the body schema: e-mail, full name, share > 0, no duplicates, Italian messages', () => {
    const ok = replaceCoOwnersSchema.safeParse({ sellerShare: 50, coOwners: [{ email: ' Anna@Example.it ', fullName: 'Anna Rossi', share: 50 }] });
    expect(ok.success && ok.data.coOwners[0]!.email).toBe('anna@example.it');
    const zero = replaceCoOwnersSchema.safeParse({ sellerShare: 50, coOwners: [{ email: 'a@example.it', fullName: 'A', share: 0 }] });
    expect(zero.success).toBe(false);
    expect(zero.error!.issues[0]!.message).toBe('La quota deve essere maggiore di 0 e al massimo 100');
    expect(replaceCoOwnersSchema.safeParse({ sellerShare: 50, coOwners: [{ email: 'x', fullName: 'A', share: 10 }] }).error!.issues[0]!.message).toBe(
      'Inserisci un indirizzo email valido',
    );
    expect(replaceCoOwnersSchema.safeParse({ sellerShare: 50, coOwners: [] }).error!.issues[0]!.message).toBe('Dati mancanti');
    const dup = replaceCoOwnersSchema.safeParse({
      sellerShare: 50,
      coOwners: [
        { email: 'a@example.it', fullName: 'A', share: 50 },
        { email: 'A@example.it', fullName: 'B', share: 50 },
      ],
    });
    expect(dup.error!.issues[0]!.message).toBe('Lo stesso indirizzo email compare più volte');
  });

  it("asks the seller's own share: > 0 and < 100, Italian message", () => {
    const coOwners = [{ email: 'anna@example.it', fullName: 'Anna Rossi', share: 50 }];
    expect(replaceCoOwnersSchema.safeParse({ sellerShare: 50, coOwners }).success).toBe(true);
    expect(replaceCoOwnersSchema.safeParse({ sellerShare: 0.5, coOwners }).success).toBe(true);
    // missing (an old client), zero, the whole property, beyond, negative, a string, null
    for (const sellerShare of [undefined, 0, 100, 150, -50, '50', null, Number.NaN]) {
      const r = replaceCoOwnersSchema.safeParse({ sellerShare, coOwners });
      expect(r.success, String(sellerShare)).toBe(false);
      expect(r.error!.issues[0]!.message).toBe('Indica la tua quota: maggiore di 0 e minore di 100');
    }
  });

  it("counts the seller's share in the total: a 50/50 couple is 50 and 50", () => {
    expect(shareWarning(ownershipShares(50, [{ share: 50 }]))).toBeNull();
    expect(shareWarning(ownershipShares(50, [{ share: 100 }]))).toBe('La somma delle quote è 150% (dovrebbe essere 100%)');
    expect(shareWarning(ownershipShares(40, [{ share: 30 }, { share: 20 }]))).toBe('La somma delle quote è 90% (dovrebbe essere 100%)');
    expect(shareWarning(ownershipShares(33.33, [{ share: 33.33 }, { share: 33.34 }]))).toBeNull();
    // a list saved before the seller's share was asked: the co-owners alone total 100
    expect(shareWarning(ownershipShares(null, [{ share: 100 }]))).toBeNull();
    expect(ownershipShares(25, [{ share: 75 }])).toEqual([{ share: 25 }, { share: 75 }]);
  });
});

describe('codice fiscale', () => {
  it.each(['RSSMRA85T10A562S', 'rssmra85t10a562s', 'BNCGLI90A41F205K'.slice(0, 15) + fiscalCodeCheckChar('BNCGLI90A41F205')])('accepts %s', (cf) => {
    expect(isValidFiscalCode(cf)).toBe(true);
  });

  it('computes the check character', () => {
    expect(fiscalCodeCheckChar('RSSMRA85T10A562')).toBe('S');
  });

  it('accepts omocodia (digits replaced by letters) with its own check character', () => {
    const base = 'RSSMRA85T10A56N'; // 2 -> N
    expect(isValidFiscalCode(base + fiscalCodeCheckChar(base))).toBe(true);
  });

  it.each([
    ['wrong check character', 'RSSMRA85T10A562T'],
    ['too short', 'RSSMRA85T10A562'],
    ['too long', 'RSSMRA85T10A562SX'],
    ['bad month letter', 'RSSMRA85Z10A562S'],
    ['digits where letters go', '1SSMRA85T10A562S'],
    ['empty', ''],
  ])('refuses %s', (_, cf) => {
    expect(isValidFiscalCode(cf)).toBe(false);
  });

  it('is normalized to uppercase, max 16', () => {
    expect(normalizeFiscalCode(' rssmra85t10a562s99 ')).toBe('RSSMRA85T10A562S');
  });
});

describe("the codice fiscale's letters of a name", () => {
  it('codes surnames and given names as the codice fiscale does', () => {
    expect(surnameCode('Rossi')).toBe('RSS');
    expect(surnameCode('Fo')).toBe('FOX');
    expect(surnameCode("D'Amico")).toBe('DMC');
    expect(surnameCode('De Luca')).toBe('DLC');
    expect(surnameCode('Rè')).toBe('REX');
    expect(givenNameCode('Mario')).toBe('MRA');
    expect(givenNameCode('Anna')).toBe('NNA');
    // four consonants or more: the 1st, 3rd and 4th
    expect(givenNameCode('Gianfranco')).toBe('GFR');
    expect(givenNameCode('Anna Maria')).toBe('NMR');
  });

  it("fits a name written either way, split anywhere, and refuses someone else's code", () => {
    const rossi = 'RSSMRA80A01H501U';
    for (const name of ['Mario Rossi', 'Rossi Mario', '  mario   rossi ']) expect(fiscalCodeFitsName(rossi, name), name).toBe(true);
    expect(fiscalCodeFitsName('RSSNMR85M41F205X', 'Anna Maria Rossi')).toBe(true);
    expect(fiscalCodeFitsName('DLCGNN70A01F205X', 'Giovanni De Luca')).toBe(true);
    expect(fiscalCodeFitsName('bncnna85m41f205x', 'Anna Bianchi')).toBe(true);
    expect(fiscalCodeFitsName(rossi, 'Anna Bianchi')).toBe(false);
    expect(fiscalCodeFitsName(rossi, 'Luca Rossi')).toBe(false);
    // Mario and Maria share their letters: the sex is in the birth day's digits
    expect(fiscalCodeFitsName(rossi, 'Maria Rossi')).toBe(true);
    // one word: no surname and name to compare
    expect(fiscalCodeFitsName(rossi, 'Rossi')).toBe(false);
  });
});

describe('signed delegation upload', () => {
  it.each([
    ['firmata.pdf', 'application/pdf', 'pdf'],
    ['scan.JPG', 'image/jpeg', 'jpg'],
    ['scan.jpeg', 'image/jpeg', 'jpeg'],
    ['scan.png', 'image/png', 'png'],
    ['delega.doc', 'application/msword', 'doc'],
    ['delega.docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', 'docx'],
    ['delega.txt', 'text/plain', 'txt'],
  ])('accepts %s (%s)', (name, type, ext) => {
    expect(signedUploadExtension(name, type)).toBe(ext);
  });

  it.each([
    ['delega.exe', 'application/octet-stream'],
    ['delega.pdf', 'image/png'],
    ['delega', 'application/pdf'],
    ['foto.gif', 'image/gif'],
  ])('refuses %s (%s)', (name, type) => {
    expect(signedUploadExtension(name, type)).toBeNull();
  });
});

describe('delegations body', () => {
  const body = {
    province: 'mi',
    municipality: 'Milano',
    types: ['catasto'],
    delegator: { fullName: 'Mario Rossi', fiscalCode: 'rssmra85t10a562s', documentType: 'carta_identita', documentNumber: 'ca 12345ab' },
  };
  it('uppercases province and fiscal code', () => {
    const r = generateDelegationsSchema.safeParse(body);
    expect(r.success).toBe(true);
    expect(r.data!.province).toBe('MI');
    expect(r.data!.delegator.fiscalCode).toBe('RSSMRA85T10A562S');
    expect(r.data!.delegator).toMatchObject({ documentType: 'carta_identita', documentNumber: 'CA12345AB' });
  });
  it("needs the delegator's document type and number (spec 000: delegator_id_type, delegator_id_number)", () => {
    const { documentType: _t, ...noType } = body.delegator;
    const { documentNumber: _n, ...noNumber } = body.delegator;
    const message = (delegator: object) => generateDelegationsSchema.safeParse({ ...body, delegator }).error?.issues[0]?.message;
    expect(message(noType)).toBe('Tipo di documento non valido');
    expect(message({ ...body.delegator, documentType: 'tessera_sanitaria' })).toBe('Tipo di documento non valido');
    expect(message(noNumber)).toBe('Il numero del documento è obbligatorio');
    expect(message({ ...body.delegator, documentNumber: '   ' })).toBe('Il numero del documento è obbligatorio');
    expect(message({ ...body.delegator, documentNumber: 'CA1<script>' })).toBe('Il numero del documento può contenere solo lettere, cifre e trattini');
    expect(message({ ...body.delegator, documentNumber: 'X'.repeat(31) })).toBe('Il numero del documento può avere al massimo 30 caratteri');
  });
  it('needs province, municipality and at least one type', () => {
    for (const bad of [{ ...body, types: [] }, { ...body, province: 'XX' }, { ...body, municipality: ' ' }]) {
      expect(generateDelegationsSchema.safeParse(bad).error!.issues[0]!.message).toBe('Seleziona provincia, comune e almeno un tipo di delega');
    }
    expect(generateDelegationsSchema.safeParse({ ...body, types: ['boh'] }).error!.issues[0]!.message).toBe('Tipo di delega non valido');
    expect(generateDelegationsSchema.safeParse({ ...body, delegator: { ...body.delegator, fiscalCode: 'RSSMRA85T10A562T' } }).error!.issues[0]!.message).toBe(
      'Codice fiscale non valido',
    );
  });
});

describe('documents and mail', () => {
  it('the delegation form names delegator, fiscal code, delegatee company and administrator', () => {
    const doc = delegationDocument({
      type: 'ipotecario',
      createdAt: '2026-11-23T10:00:00Z',
      province: { code: 'MI', name: 'Milano' },
      municipality: 'Milano',
      property: { address: 'Via Verdi 12', city: 'Milano', province: 'MI' },
      delegator: { fullName: 'Mario Rossi', fiscalCode: 'RSSMRA85T10A562S', documentType: 'passaporto', documentNumber: 'YA1234567', birthPlace: 'Roma', birthDate: '1985-12-10' },
      delegatee: { company: 'Opzione Casa S.r.l.', administrator: 'Marco Ferrari' },
    });
    expect(doc.title).toBe('Delega - Ispezione Ipotecaria');
    const all = doc.sections.flatMap((s) => s.lines).join('\n');
    for (const s of ['Mario Rossi', 'RSSMRA85T10A562S', 'Opzione Casa S.r.l.', 'Marco Ferrari', 'Via Verdi 12', '10/12/1985']) expect(all).toContain(s);
    expect(doc.sections[0]!.lines).toContain('Documento di identità: Passaporto n. YA1234567');
  });

  it('the co-owner invitation links to /seller-kyc?token=', () => {
    expect(coOwnerKycUrl('https://x.it/', 'abc')).toBe('https://x.it/seller-kyc?token=abc');
    const m = renderCoOwnerInvitation({ coOwnerName: 'Anna', sellerName: 'Mario Rossi', propertyAddress: 'Via Verdi 12', propertyCity: 'Milano', share: 50, token: 'tok_1', appUrl: 'https://x.it' });
    // a fixed subject: no text a seller typed goes into it (the address is in the body)
    expect(m.subject).toBe('Invito a verificare la tua identità di comproprietario');
    expect(m.text).toContain('Via Verdi 12');
    expect(m.text).toContain('https://x.it/seller-kyc?token=tok_1');
    expect(m.html).toContain('Gentile Anna');
  });
});

describe('onboarding steps (spec 000 section 4)', () => {
  const facts = (f: Partial<OnboardingFacts> = {}): OnboardingFacts => ({ identity: null, coOwners: [], singleOwner: false, delegations: [], option: null, ...f });
  const signed = { documentKey: 'p/delegations/signed-catasto-1.pdf', signedAt: '2026-01-01T00:00:00Z' };
  const verified = { identity: { status: 'verified' } };

  it('nothing done: three steps, only the first available', () => {
    const s = onboardingState(facts());
    expect(s.steps.map((x) => x.id)).toEqual(['identity', 'coOwners', 'delegations']);
    expect(s.steps.map((x) => x.available)).toEqual([true, false, false]);
    expect(s.current).toBe('identity');
    expect(s.complete).toBe(false);
    expect(s.completionMessage).toBeNull();
  });

  it('identity is done only when verified', () => {
    expect(onboardingState(facts({ identity: { status: 'pending' } })).steps[0]!.done).toBe(false);
    expect(onboardingState(facts(verified)).steps[0]!.done).toBe(true);
    expect(onboardingState(facts(verified)).steps[1]!.available).toBe(true);
  });

  it('co-owners: done with any co-owner or with the single-owner skip', () => {
    expect(onboardingState(facts(verified)).steps[1]!.done).toBe(false);
    expect(onboardingState(facts({ ...verified, coOwners: [{}] })).steps[1]!.done).toBe(true);
    expect(onboardingState(facts({ ...verified, singleOwner: true })).steps[1]!.done).toBe(true);
  });

  it('a later step is not available while an earlier one is open, even if its facts are there', () => {
    const s = onboardingState(facts({ singleOwner: true, delegations: [signed] }));
    expect(s.steps.map((x) => [x.done, x.available])).toEqual([
      [false, true],
      [true, false],
      [true, false],
    ]);
    expect(s.complete).toBe(false);
  });

  it('delegations: stays on step 3 until every one is signed (and at least one exists)', () => {
    const base = { ...verified, singleOwner: true };
    expect(onboardingState(facts(base)).current).toBe('delegations');
    const partial = onboardingState(facts({ ...base, delegations: [signed, { documentKey: null, signedAt: null }] }));
    expect(partial.current).toBe('delegations');
    expect(partial.canCompleteDelegations).toBe(false);
    expect(onboardingState(facts({ ...base, delegations: [{ documentKey: 'k', signedAt: null }] })).steps[2]!.done).toBe(false);
    const all = onboardingState(facts({ ...base, delegations: [signed, signed] }));
    expect(all.steps[2]!.done).toBe(true);
    expect(all.canCompleteDelegations).toBe(true);
  });

  it('complete without an option: three steps and the "team will prepare the option" card', () => {
    const s = onboardingState(facts({ ...verified, singleOwner: true, delegations: [signed] }));
    expect(s.steps).toHaveLength(3);
    expect(s.complete).toBe(true);
    expect(s.current).toBeNull();
    expect(s.completionMessage).toContain("preparerà l'opzione di acquisto");
  });

  it('an option adds step 4, done only with signedAt and signatureData', () => {
    const done = { ...verified, singleOwner: true, delegations: [signed] };
    const unsigned = onboardingState(facts({ ...done, option: { signedAt: null, signatureData: null } }));
    expect(unsigned.steps.map((x) => x.id)).toEqual(['identity', 'coOwners', 'delegations', 'option']);
    expect(unsigned.steps[3]!.available).toBe(true);
    expect(unsigned.complete).toBe(false);
    expect(unsigned.current).toBe('option');
    expect(onboardingState(facts({ ...done, option: { signedAt: '2026-01-01', signatureData: null } })).complete).toBe(false);
    const signedOption = onboardingState(facts({ ...done, option: { signedAt: '2026-01-01', signatureData: { signedDocumentKey: 'k' } } }));
    expect(signedOption.complete).toBe(true);
    expect(signedOption.completionMessage).toContain('originale cartaceo');
  });

  it('the option step is not available before the delegations are done', () => {
    const s = onboardingState(facts({ ...verified, singleOwner: true, option: { signedAt: null, signatureData: null } }));
    expect(s.steps[3]!.available).toBe(false);
  });
});
