/**
 * The Lambda bundles replace four dependencies with what the functions use of them
 * (infra/lambda-bundle). Bundled exactly as the CDK stack bundles, the document PDF must hold
 * the same objects as the real modules render, the PNG decoder and the other fonts must be
 * gone and refuse loudly, and the SDK clients must take the credentials Lambda puts in the
 * environment.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { decodePDFRawStream, PDFDocument, PDFRawStream } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { lambdaBuildOptions } from '../../infra/lambda-bundle';
import { renderDocumentPdf, type PdfDocumentContent } from '../../functions/lib/pdf';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const dir = mkdtempSync(path.join(os.tmpdir(), 'lambda-bundle-'));

/** `source` (an ES module) bundled as a Lambda is; returns the bundle's path and text */
async function bundle(name: string, source: string): Promise<{ file: string; text: string }> {
  const file = path.join(dir, `${name}.mjs`);
  await build({
    stdin: { contents: source, resolveDir: ROOT, loader: 'ts', sourcefile: `${name}.ts` },
    outfile: file,
    ...lambdaBuildOptions(),
    logLevel: 'error',
  });
  return { file, text: readFileSync(file, 'utf8') };
}

const content: PdfDocumentContent = {
  title: 'Delega Catasto — Via Carlo Goldoni 7, Milano',
  subtitle: 'Generata il 24/11/2026 alle 10:30',
  sections: [
    { title: 'Delegante', lines: ['Marco Conti, C.F. CNTMRC80A01F205X', 'nato a Milano (MI) il 01/01/1980', 'Città: Forlì-Cesena, perché “sì” è così… € 1.234,56'] },
    { title: 'Oggetto', lines: Array.from({ length: 60 }, (_, i) => `Riga ${i + 1}: AVVWAVAT kerning Ty Te Yo, l’ultima parola è «fine».`) },
  ],
};

/** every object of a PDF as text, streams decoded (read with the real pdf-lib) */
async function objectsOf(bytes: Uint8Array): Promise<string[]> {
  const doc = await PDFDocument.load(bytes);
  return doc.context.enumerateIndirectObjects().map(([ref, obj]) => {
    // a compressed stream's /Length is the one thing the compressor decides
    const text = obj instanceof PDFRawStream ? `${obj.dict.toString().replace(/\/Length \d+/, '')} ${Buffer.from(decodePDFRawStream(obj).decode()).toString('latin1')}` : obj.toString();
    return `${ref.toString()} ${text}`;
  });
}

afterAll(() => rmSync(dir, { recursive: true, force: true }));

// bundling and starting Node processes: more than the unit default on two busy cores
describe('the PDF in a Lambda bundle', { timeout: 60_000 }, () => {
  let pdf: { file: string; text: string };
  let bundled: { renderDocumentPdf: typeof renderDocumentPdf; embedPng: () => Promise<unknown>; embedTimes: () => Promise<unknown> };

  beforeAll(async () => {
    pdf = await bundle(
      'pdf',
      `import { PDFDocument, StandardFonts } from 'pdf-lib';
       export { renderDocumentPdf } from ${JSON.stringify(path.join(ROOT, 'functions/lib/pdf.ts'))};
       const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
       export const embedPng = async () => (await PDFDocument.create()).embedPng(PNG);
       export const embedTimes = async () => (await PDFDocument.create()).embedFont(StandardFonts.TimesRoman);`,
    );
    bundled = await import(pathToFileURL(pdf.file).href);
  }, 60_000);

  it('renders the same document as the real pdf-lib, fonts and zlib (two pages, kerning, accents, €)', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(new Date('2026-11-24T10:30:00Z'));
      const real = await renderDocumentPdf(content);
      const lambda = await bundled.renderDocumentPdf(content);
      // zlib and pako may pack the same stream differently: the objects, streams decoded, are equal
      expect(await objectsOf(lambda)).toEqual(await objectsOf(real));
      const doc = await PDFDocument.load(lambda);
      expect(doc.getPageCount()).toBe(2);
      expect(doc.getTitle()).toBe(content.title);
    } finally {
      vi.useRealTimers();
    }
  });

  it('ships two fonts of fourteen and no PNG decoder: asking for them fails loudly', async () => {
    await expect(bundled.embedTimes()).rejects.toThrow('Standard font Times-Roman is not in the Lambda bundle');
    await expect(bundled.embedPng()).rejects.toThrow('PNG embedding is not in the Lambda bundle');
    const times = readFileSync(path.join(ROOT, 'node_modules/@pdf-lib/standard-fonts/es/Times-Roman.compressed.json'), 'utf8');
    expect(pdf.text).not.toContain(JSON.parse(times).slice(0, 200));
    expect(pdf.text).not.toContain('pako');
  });
});

describe('the SDK clients in a Lambda bundle', { timeout: 60_000 }, () => {
  let file: string;
  beforeAll(async () => {
    ({ file } = await bundle(
      'credentials',
      `import { S3Client } from '@aws-sdk/client-s3';
       const client = new S3Client({ region: 'eu-south-1' });
       try {
         const c = await client.config.credentials();
         process.stdout.write(JSON.stringify({ accessKeyId: c.accessKeyId, secretAccessKey: c.secretAccessKey, sessionToken: c.sessionToken }));
       } catch (err) {
         process.stdout.write(JSON.stringify({ error: err.name + ': ' + err.message }));
       }`,
    ));
  }, 60_000);
  const run = (env: Record<string, string>) =>
    JSON.parse(execFileSync(process.execPath, [file], { env: { PATH: process.env.PATH ?? '', ...env }, encoding: 'utf8', timeout: 20_000 })) as Record<string, string>;

  it('take the role credentials Lambda puts in the environment', () => {
    expect(run({ AWS_ACCESS_KEY_ID: 'ASIAEXAMPLE', AWS_SECRET_ACCESS_KEY: 'secret', AWS_SESSION_TOKEN: 'token' })).toEqual({
      accessKeyId: 'ASIAEXAMPLE',
      secretAccessKey: 'secret',
      sessionToken: 'token',
    });
  });

  it('without them, fail at once instead of looking for files, SSO or instance metadata', () => {
    expect(run({ HOME: dir }).error).toMatch(/CredentialsProviderError: Unable to find environment variable credentials/);
  });
});
