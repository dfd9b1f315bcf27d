/**
 * The `iam` of each manifest entry is what its code calls: the SDK commands found in the
 * function's own bundle (test/infra/sdk-calls.ts) give the IAM actions it needs, per
 * resource, and they must equal the declaration. A missing action would be an outage on AWS
 * that the local emulators (which check no IAM) never show; an extra one a wider role than
 * needed. On a mismatch the message prints the `iam` the code needs.
 */
import { describe, expect, it } from 'vitest';
import { TRUST_PREFIX } from '../../functions/lib/trust-store';
import { routes, triggers, type Iam, type RouteDef, type TriggerDef } from '../../functions/routes';
import { asDeclaration, sdkCallsOf } from './sdk-calls';

const literal = (declaration: Record<string, readonly string[]>) =>
  `iam: { ${Object.entries(declaration)
    .map(([k, v]) => `${k}: [${v.map((a) => `'${a}'`).join(', ')}]`)
    .join(', ')} }`;

/** The declared actions per resource; `mediaPrefix` narrows them, the code does not say it (checked apart below). */
const declared = ({ mediaPrefix: _, ...iam }: Iam) =>
  Object.fromEntries(
    Object.entries(iam)
      .filter(([, actions]) => (actions as readonly string[]).length > 0)
      .map(([resource, actions]) => [resource, [...new Set(actions as readonly string[])].sort()]),
  );

const entries: (RouteDef | TriggerDef)[] = [...routes, ...triggers];

describe('each function declares the IAM actions its code calls', () => {
  it.each(entries.map((def) => [def.id, def] as const))('%s', async (_id, def) => {
    const calls = await sdkCallsOf(def);
    const needed = asDeclaration(calls.derived);
    expect(declared(def.iam), `functions/${def.handler}.ts calls ${calls.commands.join(', ') || 'no AWS API'}: ${literal(needed)}`).toEqual(needed);
  });
});

describe('a media prefix is where the code keeps its keys', () => {
  const prefixed = entries.filter((def) => def.iam.mediaPrefix !== undefined);

  it('is declared where expected', () => {
    expect(prefixed.map((def) => def.id)).toContain('refreshTrustedList');
  });

  it.each(prefixed.map((def) => [def.id, def] as const))('%s names keys under its mediaPrefix', async (_id, def) => {
    const { code } = await sdkCallsOf(def);
    // a string literal that starts with the prefix (the code builds its keys from it)
    const quoted = new RegExp(`["'\`]${def.iam.mediaPrefix!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`);
    expect(code, `functions/${def.handler}.ts never names a key under ${def.iam.mediaPrefix}`).toMatch(quoted);
  });

  it('is the trust store prefix for refreshTrustedList (functions/lib/trust-store.ts)', () => {
    expect(triggers.find((t) => t.id === 'refreshTrustedList')!.iam.mediaPrefix).toBe(TRUST_PREFIX);
  });
});

describe('the bundle reading itself', () => {
  it('follows renamed imports, transaction items, presigned POSTs and missing-object checks', async () => {
    // submitProperty: commands imported under several names, a transaction, HeadObject with a 404 check, the drafts' copies
    const submit = await sdkCallsOf({ id: 'submitProperty', handler: 'properties/submit-property' });
    expect(submit.commands).toEqual(expect.arrayContaining(['@aws-sdk/lib-dynamodb:TransactWriteCommand', '@aws-sdk/client-s3:HeadObjectCommand', '@aws-sdk/client-s3:CopyObjectCommand']));
    expect([...submit.derived.table]).toEqual(expect.arrayContaining(['PutItem', 'UpdateItem']));
    expect([...submit.derived.media]).toEqual(expect.arrayContaining(['GetObject', 'ListBucket', 'PutObject']));
    expect([...submit.derived.media]).not.toContain('PutObjectTagging');
    // the wizard's presigned POST carries the draft tag
    const upload = await sdkCallsOf({ id: 'createUpload', handler: 'properties/create-upload' });
    expect([...upload.derived.media].sort()).toEqual(['PutObject', 'PutObjectTagging']);
    expect(upload.files).toContain('functions/lib/presigned-upload.ts');
    // the health check calls nothing of its own: only route()'s session read (GetItem, every route)
    const health = await sdkCallsOf({ id: 'health', handler: 'system/health' });
    expect(asDeclaration(health.derived)).toEqual({ table: ['GetItem'] });
  });
});
