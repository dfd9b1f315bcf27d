import { CompareFacesCommand, RekognitionClient } from '@aws-sdk/client-rekognition';
import { config } from '../config';
import { FaceImageError, type FaceComparison, type FaceMatcher } from './face-matcher';

/** CompareFaces takes images of at most 5 MB as bytes. */
export const REKOGNITION_MAX_BYTES = 5 * 1024 * 1024;

let client: RekognitionClient | undefined;

/**
 * Amazon Rekognition CompareFaces. SimilarityThreshold 0 makes every face of the target a
 * FaceMatch with its similarity, so the use case (not Rekognition) decides the threshold.
 * Rekognition compares the largest face of the source and cannot say whether the source
 * has more than one: `faces.source` is 1 when it found one, 0 when it found none.
 * The region is REKOGNITION_REGION (Rekognition is not offered in every region, e.g. not
 * in eu-south-1), default the Lambda's own.
 */
export function rekognitionFaceMatcher(): FaceMatcher {
  client ??= new RekognitionClient({ region: config().REKOGNITION_REGION });
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
        const matches = res.FaceMatches ?? [];
        const targetFaces = matches.length + (res.UnmatchedFaces?.length ?? 0);
        const best = matches.reduce<number | null>((m, f) => (f.Similarity !== undefined && (m === null || f.Similarity > m) ? f.Similarity : m), null);
        return { faces: { source: res.SourceImageFace ? 1 : 0, target: targetFaces }, similarity: targetFaces > 0 ? (best ?? 0) : null };
      } catch (err) {
        const name = (err as { name?: string }).name;
        // no face in the source image is an InvalidParameterException
        if (name === 'InvalidParameterException') return { faces: { source: 0, target: 0 }, similarity: null };
        if (name === 'InvalidImageFormatException') throw new FaceImageError('unreadable', 'not a JPEG or PNG');
        if (name === 'ImageTooLargeException') throw new FaceImageError('tooLarge', 'image too large');
        throw err;
      }
    },
  };
}
