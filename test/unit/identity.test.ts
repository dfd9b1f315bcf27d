/**
 * The identity check's pure rules (functions/domain/identity.ts) and the local engine's
 * calibration (distance -> similarity): same file or photograph twice, ghost portraits,
 * a selfie as the document, the review band.
 */
import { describe, expect, it } from 'vitest';
import {
  comparableFaces,
  decideIdentity,
  engineIncomplete,
  IDENTITY_MESSAGES as M,
  identityReviewDecisionSchema,
  type Box,
  type FaceObservation,
} from '../../functions/domain/identity';
import { SAME_PERSON_DISTANCE, similarityFromDistance, VERIFIED_DISTANCE } from '../../functions/lib/faces/local-face-matcher';

const box = (left: number, top: number, width: number, height = width): Box => ({ left, top, width, height });
/** a selfie: one large face */
const SELFIE = box(0.25, 0.2, 0.5, 0.6);
/** the portrait's face on a photo of a whole card: about 6 % of the image */
const CARD_FACE = box(0.1, 0.3, 0.2, 0.3);
/** the CIE's ghost portrait: a third of the main face's side */
const GHOST = box(0.75, 0.5, 0.07, 0.1);

const seen = (o: Partial<FaceObservation> & { similarity?: number }): FaceObservation => ({
  source: [SELFIE],
  target: [{ box: CARD_FACE, similarity: o.similarity ?? 85 }],
  samePhoto: false,
  sameBytes: false,
  ...o,
});

describe('decideIdentity', () => {
  it('verifies from 70, sends 60-70 to review, rejects below 60', () => {
    expect(decideIdentity(seen({ similarity: 85 }))).toEqual({ valid: true, status: 'verified', reason: M.verified, confidence: 85 });
    expect(decideIdentity(seen({ similarity: 70 }))).toMatchObject({ valid: true, status: 'verified' });
    expect(decideIdentity(seen({ similarity: 69.9 }))).toEqual({ valid: false, status: 'review', reason: M.inReview, confidence: 69.9 });
    expect(decideIdentity(seen({ similarity: 60 }))).toMatchObject({ valid: false, status: 'review' });
    expect(decideIdentity(seen({ similarity: 59.9 }))).toEqual({ valid: false, status: 'rejected', reason: M.noMatch, confidence: 59.9 });
  });

  it('refuses the same file as face and document, whatever the similarity', () => {
    const r = decideIdentity(seen({ sameBytes: true, similarity: 100 }));
    expect(r).toEqual({ valid: false, status: 'rejected', reason: 'La foto del volto e la foto del documento sono la stessa immagine: scatta un selfie e fotografa il documento', confidence: 0 });
  });

  it('refuses the same photograph re-encoded: the engine says so, or the face sits at the same place of the frame', () => {
    expect(decideIdentity(seen({ samePhoto: true, similarity: 99 }))).toMatchObject({ valid: false, reason: M.samePhoto });
    // a card photographed once and sent twice (resized): same box within 2 %, high similarity
    const card = box(0.1, 0.3, 0.2, 0.3);
    const twice = decideIdentity(seen({ source: [card], target: [{ box: box(0.11, 0.29, 0.21, 0.3), similarity: 92 }] }));
    expect(twice).toMatchObject({ valid: false, status: 'rejected', reason: M.samePhoto });
    // the same place but a low similarity is not the same photograph: the similarity decides
    expect(decideIdentity(seen({ source: [card], target: [{ box: card, similarity: 40 }] }))).toMatchObject({ reason: M.noMatch });
    // a selfie and a card: different frames, verified
    expect(decideIdentity(seen({ similarity: 92 }))).toMatchObject({ valid: true });
  });

  it('ignores the ghost portrait of an electronic ID card, in any order', () => {
    const ghostFirst = seen({ target: [{ box: GHOST, similarity: 55 }, { box: CARD_FACE, similarity: 80 }] });
    expect(decideIdentity(ghostFirst)).toEqual({ valid: true, status: 'verified', reason: M.verified, confidence: 80 });
    // the ghost is compared with nothing: a good ghost does not save a bad main portrait
    const badMain = seen({ target: [{ box: CARD_FACE, similarity: 30 }, { box: GHOST, similarity: 95 }] });
    expect(decideIdentity(badMain)).toMatchObject({ valid: false, reason: M.noMatch, confidence: 30 });
  });

  it('still refuses two comparable faces on the document', () => {
    const second = box(0.6, 0.3, 0.15, 0.25); // 0.0375 vs 0.06: more than a quarter
    expect(decideIdentity(seen({ target: [{ box: CARD_FACE, similarity: 90 }, { box: second, similarity: 20 }] }))).toMatchObject({ valid: false, reason: M.manyFacesInDocument });
    // just under a quarter of the area is a ghost
    expect(comparableFaces([{ box: CARD_FACE }, { box: box(0, 0, 0.2 * 0.49, 0.3 * 0.5) }])).toHaveLength(1);
    expect(comparableFaces([{ box: CARD_FACE }, { box: box(0, 0, 0.2 * 0.51, 0.3 * 0.5) }])).toHaveLength(2);
  });

  it('refuses a selfie sent as the document with its own reason', () => {
    const r = decideIdentity(seen({ target: [{ box: box(0.2, 0.15, 0.5, 0.55), similarity: 88 }] }));
    expect(r).toEqual({ valid: false, status: 'rejected', reason: 'La foto del documento deve mostrare tutto il documento, non solo un volto: fotografa il fronte intero', confidence: 0 });
    // 21 % of the image is already too much; 19 % is a close-up of a card, accepted
    expect(decideIdentity(seen({ target: [{ box: box(0, 0, 0.42, 0.5), similarity: 88 }] }))).toMatchObject({ reason: M.documentFaceTooLarge });
    expect(decideIdentity(seen({ target: [{ box: box(0, 0, 0.38, 0.5), similarity: 88 }] }))).toMatchObject({ valid: true });
  });

  it('keeps the face count reasons', () => {
    expect(decideIdentity(seen({ source: [] }))).toMatchObject({ reason: M.noFaceInPhoto, status: 'rejected' });
    expect(decideIdentity(seen({ source: [SELFIE, box(0, 0, 0.1)] }))).toMatchObject({ reason: M.manyFacesInPhoto });
    expect(decideIdentity(seen({ target: [] }))).toMatchObject({ reason: M.noFaceInDocument });
  });

  it('sends a check the engine could not complete to review', () => {
    expect(engineIncomplete()).toEqual({ valid: false, status: 'review', reason: M.engineUnavailable, confidence: 0 });
  });
});

describe('local engine calibration', () => {
  it('maps the measured same-person distances above 70 and impostors below 60', () => {
    expect(similarityFromDistance(0)).toBe(100);
    expect(similarityFromDistance(VERIFIED_DISTANCE)).toBe(70);
    expect(similarityFromDistance(SAME_PERSON_DISTANCE)).toBe(60);
    expect(similarityFromDistance(0.9)).toBe(0);
    expect(similarityFromDistance(1.3)).toBe(0);
    // two shots of one person measure 0.33-0.46: verified, not in review
    for (const d of [0.33, 0.4, 0.46]) expect(similarityFromDistance(d)).toBeGreaterThanOrEqual(70);
    // different persons measure 0.65 and more: rejected with a margin
    for (const d of [0.65, 0.73, 0.88]) expect(similarityFromDistance(d)).toBeLessThan(60);
    // monotonic
    let last = 101;
    for (let d = 0; d <= 1; d += 0.01) {
      const s = similarityFromDistance(d);
      expect(s).toBeLessThanOrEqual(last);
      last = s;
    }
  });
});

describe('the admin decision', () => {
  it('needs a decision, a reason and the check it decides, in Italian', () => {
    const checkedAt = '2026-11-28T09:30:00.000Z';
    expect(identityReviewDecisionSchema.safeParse({ decision: 'approve', reason: '  Stessa persona ', checkedAt }).data).toEqual({ decision: 'approve', reason: 'Stessa persona', checkedAt });
    expect(identityReviewDecisionSchema.safeParse({ decision: 'approve', reason: '   ', checkedAt }).error?.issues[0]?.message).toBe('Indica il motivo della decisione');
    expect(identityReviewDecisionSchema.safeParse({ decision: 'verified', reason: 'x', checkedAt }).error?.issues[0]?.message).toBe('Decisione non valida: approva o rifiuta');
    expect(identityReviewDecisionSchema.safeParse({ decision: 'reject', reason: 'x'.repeat(501), checkedAt }).error?.issues[0]?.message).toBe('Il motivo può avere al massimo 500 caratteri');
    for (const named of [undefined, '', 'ieri']) {
      expect(identityReviewDecisionSchema.safeParse({ decision: 'approve', reason: 'Stessa persona', checkedAt: named }).error?.issues[0]?.message).toBe('Verifica da decidere non valida: ricarica la pagina');
    }
  });
});
