/**
 * Stands for `@pdf-lib/upng` in the Lambda bundles (alias in ./index.ts): pdf-lib decodes PNG
 * only to embed a PNG image, which no Lambda does (the PDFs are text, functions/lib/pdf.ts).
 * Calling it throws, so a future use fails loudly instead of rendering wrong.
 */
function notBundled(): never {
  throw new Error('PNG embedding is not in the Lambda bundle (infra/lambda-bundle/no-png.ts)');
}

export default { decode: notBundled, toRGBA8: notBundled };
