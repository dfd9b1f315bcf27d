/**
 * The photographed pages of a signed document as ONE PDF, in the order given: each photo
 * turned as the camera held it (its EXIF orientation, applied by the browser) and by the
 * seller's quarter turns, nothing else straightened; one A4 page per photo, portrait or
 * landscape as the photo, the photo fitted whole. pdf-lib is loaded only here.
 */

export type QuarterTurns = 0 | 1 | 2 | 3;

export interface PagePhoto {
  id: string;
  file: File;
  /** the seller's quarter turns clockwise */
  turns: QuarterTurns;
}

/** Long side of a page's image: enough to read a signature, small enough for the 20 MB limit. */
const MAX_SIDE = 2000;
const A4 = { short: 595.28, long: 841.89 };
const MARGIN = 20;

async function pageImage(photo: PagePhoto): Promise<{ bytes: Uint8Array; width: number; height: number }> {
  const bitmap = await createImageBitmap(photo.file, { imageOrientation: 'from-image' });
  try {
    const scale = Math.min(1, MAX_SIDE / Math.max(bitmap.width, bitmap.height));
    const w = Math.round(bitmap.width * scale);
    const h = Math.round(bitmap.height * scale);
    const sideways = photo.turns % 2 === 1;
    const canvas = document.createElement('canvas');
    canvas.width = sideways ? h : w;
    canvas.height = sideways ? w : h;
    const ctx = canvas.getContext('2d');
    if (!ctx) throw new Error('canvas non disponibile');
    ctx.fillStyle = '#fff';
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    ctx.translate(canvas.width / 2, canvas.height / 2);
    ctx.rotate((photo.turns * Math.PI) / 2);
    ctx.drawImage(bitmap, -w / 2, -h / 2, w, h);
    const blob = await new Promise<Blob>((resolve, reject) => canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('immagine non leggibile'))), 'image/jpeg', 0.85));
    return { bytes: new Uint8Array(await blob.arrayBuffer()), width: canvas.width, height: canvas.height };
  } finally {
    bitmap.close();
  }
}

export async function pagesToPdf(photos: readonly PagePhoto[], title: string): Promise<Uint8Array> {
  const { PDFDocument } = await import('pdf-lib');
  const pdf = await PDFDocument.create();
  pdf.setTitle(title);
  pdf.setProducer('Opzione Casa');
  pdf.setLanguage('it-IT');
  for (const photo of photos) {
    const img = await pageImage(photo);
    const image = await pdf.embedJpg(img.bytes);
    const landscape = img.width > img.height;
    const [pw, ph] = landscape ? [A4.long, A4.short] : [A4.short, A4.long];
    const s = Math.min((pw - 2 * MARGIN) / img.width, (ph - 2 * MARGIN) / img.height);
    const page = pdf.addPage([pw, ph]);
    page.drawImage(image, { x: (pw - img.width * s) / 2, y: (ph - img.height * s) / 2, width: img.width * s, height: img.height * s });
  }
  return pdf.save();
}
