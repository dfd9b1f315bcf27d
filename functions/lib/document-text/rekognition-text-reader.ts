import { DetectTextCommand, RekognitionClient, type TextDetection } from '@aws-sdk/client-rekognition';
import { config } from '../config';
import { DocumentImageError, type DocumentText, type DocumentTextReader } from './document-text';
import { traced } from '../observability';

/** DetectText takes images of at most 5 MB as bytes. */
export const REKOGNITION_MAX_BYTES = 5 * 1024 * 1024;

interface PlacedLine {
  text: string;
  top: number;
  left: number;
  height: number;
}

/**
 * LINE detections in reading order: by their box's top, then by left among the lines of one
 * row. Two lines are on one row when their tops differ by less than half the shorter line's
 * height (the tops of a row are never exactly equal: a plain sort by top would order a row's
 * lines by noise).
 */
export function orderLines(detections: readonly TextDetection[]): string[] {
  const lines: PlacedLine[] = detections
    .filter((d) => d.Type === 'LINE' && d.DetectedText && d.DetectedText.trim().length > 0)
    .map((d) => ({
      text: d.DetectedText!.trim(),
      top: d.Geometry?.BoundingBox?.Top ?? 0,
      left: d.Geometry?.BoundingBox?.Left ?? 0,
      height: d.Geometry?.BoundingBox?.Height ?? 0,
    }))
    .sort((a, b) => a.top - b.top);
  const rows: PlacedLine[][] = [];
  for (const line of lines) {
    const row = rows[rows.length - 1];
    const first = row?.[0];
    if (row && first && line.top - first.top < Math.min(line.height, first.height) / 2) row.push(line);
    else rows.push([line]);
  }
  return rows.flatMap((row) => row.sort((a, b) => a.left - b.left).map((l) => l.text));
}

let client: RekognitionClient | undefined;

/**
 * Amazon Rekognition DetectText with the image's bytes. Rekognition reads at most 100 words
 * per image (an ID card has fewer) and returns LINE and WORD detections: the LINEs, in
 * reading order (orderLines), are the port's lines. The region is REKOGNITION_REGION, as for
 * the face matcher (Rekognition is not offered in every region).
 */
export function rekognitionTextReader(): DocumentTextReader {
  client ??= traced(new RekognitionClient({ region: config().REKOGNITION_REGION }));
  return {
    async readText(image: Uint8Array): Promise<DocumentText> {
      if (image.length > REKOGNITION_MAX_BYTES) throw new DocumentImageError('tooLarge', 'image over 5 MB');
      try {
        const res = await client!.send(new DetectTextCommand({ Image: { Bytes: image } }));
        return { lines: orderLines(res.TextDetections ?? []) };
      } catch (err) {
        const name = (err as { name?: string }).name;
        if (name === 'InvalidImageFormatException') throw new DocumentImageError('unreadable', 'not a JPEG or PNG');
        if (name === 'ImageTooLargeException') throw new DocumentImageError('tooLarge', 'image too large');
        throw err;
      }
    },
  };
}
