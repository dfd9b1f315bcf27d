import { CompareFacesCommand, RekognitionClient } from '@aws-sdk/client-rekognition';
import { config } from '../config';
import { FaceImageError, type FaceBox, type FaceComparison, type FaceMatcher } from './face-matcher';
import { traced } from '../observability';

/** Rekognition's BoundingBox (ratios of the image) as the port's FaceBox. */
const boxOf = (b: { Left?: number; Top?: number; Width?: number; Height?: number } | undefined): FaceBox => ({
  left: b?.Left ?? 0,
  top: b?.Top ?? 0,
  width: b?.Width ?? 0,
  height: b?.Height ?? 0,
});

/** CompareFaces takes images of at most 5 MB as bytes. */
export const REKOGNITION_MAX_BYTES = 5 * 1024 * 1024;

let client: RekognitionClient | undefined;

/**
 * Amazon Rekognition CompareFaces. SimilarityThreshold 0 makes every face of the target a
 * FaceMatch with its similarity and box, so the use case (not Rekognition) decides the
 * threshold and which faces count. Rekognition compares the largest face of the source and
 * cannot say whether the source has more than one: `source` is that face or nothing.
 * The region is REKOGNITION_REGION (Rekognition is not offered in every region, e.g. not
 * in eu-south-1), default the Lambda's own.
 */
export function rekognitionFaceMatcher(): FaceMatcher {
  client ??= traced(new RekognitionClient({ region: config().REKOGNITION_REGION }));
  return {
    async compareFaces(source: Buffer, target: Buffer): Promise<FaceComparison> {
      if (source.length > REKOGNITION_MAX_BYTES || target.length > REKOGNITION_MAX_BYTES) {
        throw new FaceImageError('tooLarge', 'image over 5 MB');
      }
      try {
        const res = await client!.send(
          new CompareFacesCommand({
            SourceImage: { Bytes: source },
            TargetImage: { Bytes: target },
            SimilarityThreshold: 0,
            QualityFilter: 'AUTO',
          }),
        );
        // every face of the target (matched or not) with its box: the use case keeps the largest
        // and ignores much smaller ones (the ghost portrait of an electronic ID card)
        const faces = [
          ...(res.FaceMatches ?? []).map((m) => ({ box: boxOf(m.Face?.BoundingBox), similarity: m.Similarity ?? 0 })),
          ...(res.UnmatchedFaces ?? []).map((f) => ({ box: boxOf(f.BoundingBox), similarity: 0 })),
        ].sort((x, y) => y.box.width * y.box.height - x.box.width * x.box.height);
        const sourceFace = res.SourceImageFace?.BoundingBox;
        // Rekognition has no "same photograph" signal: the use case's byte hash and same-frame test decide
        return { source: sourceFace ? [boxOf(sourceFace)] : [], target: faces, samePhoto: false };
      } catch (err) {
        const name = (err as { name?: string }).name;
        // no face in the source image is an InvalidParameterException
        if (name === 'InvalidParameterException') return { source: [], target: [], samePhoto: false };
        if (name === 'InvalidImageFormatException') throw new FaceImageError('unreadable', 'not a JPEG or PNG');
        if (name === 'ImageTooLargeException') throw new FaceImageError('tooLarge', 'image too large');
        throw err;
      }
    },
  };
}
