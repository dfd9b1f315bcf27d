/**
 * Least privilege, read back from the synthesized templates: the role of every manifest
 * function (its own, or the one it shares; inline policies and AWS::IAM::Policy resources
 * alike) allows exactly the actions its `iam` declares in functions/routes.ts, each on its
 * resource, plus what the stacks add for the infrastructure (the origin secret of the HTTP
 * routes, the failed-events queue of the asynchronous triggers, X-Ray for active tracing),
 * and nothing else.
 * That the declarations match the code: test/infra/iam-code.test.ts.
 */
import type { CfnElement } from 'aws-cdk-lib';
import type { Template } from 'aws-cdk-lib/assertions';
import { Template as T } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TABLE_GSIS } from '../../functions/model/table';
import { routes, triggers, type Iam, type RouteDef, type TriggerDef } from '../../functions/routes';
import { declarationKey } from '../../infra/constructs/manifest-function';
import { buildApp, FAKE_MANIFEST, functionIdOf, roleIdOf, statementsOfRole, type Statement } from './helpers';

/** CloudFormation's limit of resources per stack */
const STACK_RESOURCE_LIMIT = 500;

const isAsync = (def: TriggerDef) => def.source === 's3:omiDrop' || def.source === 'schedule';

/** What an IAM resource value is, by the resource it names; anything unknown fails the test. */
function resourceKind(resource: unknown): string {
  if (resource === '*') return '*';
  const text = JSON.stringify(resource);
  const imported = (name: string) => new RegExp(`^\\{"Fn::ImportValue":"[^"]*${name}[^"]*Arn[^"]*"\\}$`).test(text);
  const joined = (name: string, suffix: string) =>
    new RegExp(`^\\{"Fn::Join":\\["",\\[\\{"Fn::ImportValue":"[^"]*${name}[^"]*Arn[^"]*"\\},"${suffix.replace(/[/*]/g, '\\$&')}"\\]\\]\\}$`).test(text);
  if (imported('Table')) return 'table';
  for (const g of TABLE_GSIS) if (joined('Table', `/index/${g.indexName}`)) return `index/${g.indexName}`;
  for (const [name, kind] of [
    ['MediaBucket', 'media'],
    ['OmiDropBucket', 'omi'],
  ] as const) {
    if (imported(name)) return `${kind} bucket`;
    if (joined(name, '/*')) return `${kind} objects`;
    // the objects under a key prefix (iam.mediaPrefix), e.g. .../trust/*
    const under = new RegExp(`^\\{"Fn::Join":\\["",\\[\\{"Fn::ImportValue":"[^"]*${name}[^"]*Arn[^"]*"\\},"/((?:[^"*/]+/)+)\\*"\\]\\]\\}$`).exec(text);
    if (under) return `${kind} objects under ${under[1]}`;
  }
  // the pool: imported by the api stack, its own in the auth stack
  if (imported('UserPool') || /^\{"Fn::GetAtt":\["UserPool[0-9A-F]{8}","Arn"\]\}$/.test(text)) return 'user pool';
  if (/:ses:/.test(text) && text.endsWith(':identity/*"]]}')) return 'ses identities';
  if (/^\{"Ref":"OriginSecret[0-9A-F]{8}"\}$/.test(text)) return 'origin secret';
  if (/^\{"Ref":"IpHashSalt[0-9A-F]{8}"\}$/.test(text)) return 'ip hash salt';
  if (/^\{"Fn::GetAtt":\["Alarms\w*FailedEvents[0-9A-F]{8}","Arn"\]\}$/.test(text)) return 'failed-events queue';
  return `unknown ${text}`;
}

type ByResource = Record<string, string[]>;

/** The statements as resource kind -> sorted actions (Allow only; a Deny or NotAction fails). */
function actionsByResource(statements: Statement[]): ByResource {
  const out: Record<string, Set<string>> = {};
  for (const s of statements) {
    expect(s.Effect).toBe('Allow');
    for (const resource of [s.Resource].flat()) {
      const kind = resourceKind(resource);
      for (const action of [s.Action].flat()) (out[kind] ??= new Set()).add(action);
    }
  }
  return Object.fromEntries(Object.entries(out).map(([k, v]) => [k, [...v].sort()]));
}

/** What the declaration must amount to, plus the infrastructure's own permissions. */
function expected(declared: Iam, extra: ByResource): ByResource {
  const out: Record<string, string[]> = { ...extra };
  const put = (kind: string, service: string, actions: readonly string[] | undefined) => {
    if (actions?.length) out[kind] = [...(out[kind] ?? []), ...actions.map((a) => `${service}:${a}`)].sort();
  };
  put('table', 'dynamodb', declared.table);
  for (const g of TABLE_GSIS) put(`index/${g.indexName}`, 'dynamodb', declared.indexes);
  for (const bucket of ['media', 'omi'] as const) {
    const prefix = bucket === 'media' ? declared.mediaPrefix : undefined;
    put(`${bucket} bucket`, 's3', declared[bucket]?.filter((a) => a === 'ListBucket'));
    put(prefix ? `${bucket} objects under ${prefix}` : `${bucket} objects`, 's3', declared[bucket]?.filter((a) => a !== 'ListBucket'));
  }
  put('user pool', 'cognito-idp', declared.cognito);
  put('ses identities', 'ses', declared.ses);
  put('*', 'rekognition', declared.rekognition);
  return out;
}

/** The origin secret each HTTP route reads through the secrets extension (test/infra/edge.test.ts), and the IP salt. */
const ROUTE_EXTRA: ByResource = {
  'origin secret': ['secretsmanager:DescribeSecret', 'secretsmanager:GetSecretValue'],
  // and the per-IP rate limit's salt, read at run time too (test/infra/secrets.test.ts)
  'ip hash salt': ['secretsmanager:DescribeSecret', 'secretsmanager:GetSecretValue'],
};
/** An asynchronous trigger's on-failure destination (test/infra/hygiene.test.ts). */
const ASYNC_EXTRA: ByResource = { 'failed-events queue': ['sqs:GetQueueAttributes', 'sqs:GetQueueUrl', 'sqs:SendMessage'] };
/** Every function's active tracing (test/infra/dashboard.test.ts): X-Ray's actions have no resource. */
const XRAY: ByResource = { '*': ['xray:PutTelemetryRecords', 'xray:PutTraceSegments'] };

function checkManifest(name: string, manifest: { routes: readonly RouteDef[]; triggers: readonly TriggerDef[] }, options: Parameters<typeof buildApp>[0]) {
  describe(`IAM of ${name}`, () => {
    let built: ReturnType<typeof buildApp>;
    let api: Template;
    let auth: Template;
    beforeAll(() => {
      built = buildApp(options);
      api = T.fromStack(built.api);
      auth = T.fromStack(built.auth);
    });
    afterAll(() => built.dispose());

    const functions = () => [
      ...manifest.routes.map((def) => ({ def, template: api, extra: ROUTE_EXTRA })),
      ...manifest.triggers.map((def) =>
        def.source.startsWith('cognito:') ? { def, template: auth, extra: {} } : { def, template: api, extra: isAsync(def) ? ASYNC_EXTRA : {} },
      ),
    ];

    it('gives each function exactly the actions its entry declares, each on its resource, and nothing else', () => {
      for (const { def, template, extra } of functions()) {
        const statements = statementsOfRole(template, roleIdOf(template, functionIdOf(template, def)));
        expect(actionsByResource(statements), def.id).toEqual(expected(def.iam, { ...XRAY, ...extra }));
      }
    });

    it('lets e-mail go out from MAIL_FROM only', () => {
      for (const { def, template } of functions()) {
        const statements = statementsOfRole(template, roleIdOf(template, functionIdOf(template, def)));
        for (const s of statements.filter((x) => [x.Action].flat().some((a) => a.startsWith('ses:')))) {
          expect(s.Condition, def.id).toEqual({ StringEquals: { 'ses:FromAddress': expect.any(String) } });
        }
      }
    });

    it('lists the media bucket only under the declared prefix, and the whole bucket without one', () => {
      for (const { def, template } of functions()) {
        const statements = statementsOfRole(template, roleIdOf(template, functionIdOf(template, def)));
        for (const s of statements.filter((x) => [x.Action].flat().includes('s3:ListBucket') && resourceKind(x.Resource) === 'media bucket')) {
          // s3:prefix is the listing's Prefix (trust/anchors/ is under trust/*); no Prefix, no listing
          expect(s.Condition, def.id).toEqual(def.iam.mediaPrefix ? { StringLike: { 's3:prefix': [`${def.iam.mediaPrefix}*`] } } : undefined);
        }
      }
    });

    it('shares a role only among routes whose declarations are identical', () => {
      const byRole = new Map<string, Set<string>>();
      for (const def of manifest.routes) {
        const role = roleIdOf(api, functionIdOf(api, def));
        byRole.set(role, (byRole.get(role) ?? new Set()).add(declarationKey(def.iam)));
      }
      for (const [role, keys] of byRole) expect([...keys], role).toHaveLength(1);
      // and routes with the same declaration do share one
      expect(byRole.size).toBe(new Set(manifest.routes.map((r) => declarationKey(r.iam))).size);
      // a trigger has its own role
      for (const def of manifest.triggers.filter(isAsync)) expect(byRole.has(roleIdOf(api, functionIdOf(api, def))), def.id).toBe(false);
      // the same actions under a media prefix are another declaration
      for (const def of manifest.routes.filter((r) => r.iam.mediaPrefix)) {
        const { mediaPrefix: _, ...unprefixed } = def.iam;
        const role = roleIdOf(api, functionIdOf(api, def));
        for (const other of manifest.routes.filter((r) => declarationKey(r.iam) === declarationKey(unprefixed))) {
          expect(roleIdOf(api, functionIdOf(api, other)), `${other.id} and ${def.id}`).not.toBe(role);
        }
      }
    });

    it(`keeps the api stack under CloudFormation's ${STACK_RESOURCE_LIMIT} resources`, () => {
      expect(Object.keys(api.toJSON().Resources).length).toBeLessThan(STACK_RESOURCE_LIMIT);
    });
  });
}

checkManifest('the real manifest', { routes, triggers }, {});
checkManifest('a manifest with every kind of entry', { routes: FAKE_MANIFEST.routes, triggers: FAKE_MANIFEST.triggers }, { manifest: FAKE_MANIFEST });

describe('declarationKey', () => {
  it('keeps a media prefix apart from the whole bucket and from another prefix', () => {
    const whole = declarationKey({ media: ['GetObject', 'ListBucket'] });
    const trust = declarationKey({ media: ['ListBucket', 'GetObject'], mediaPrefix: 'trust/' });
    expect(trust).toBe('media@trust/:GetObject,ListBucket');
    expect(new Set([whole, trust, declarationKey({ media: ['GetObject', 'ListBucket'], mediaPrefix: 'trust/anchors/' })]).size).toBe(3);
    // the same declaration written in another order
    expect(declarationKey({ mediaPrefix: 'trust/', media: ['GetObject', 'ListBucket', 'GetObject'] })).toBe(trust);
  });

  it('refuses a prefix that is no plain key prefix, or that confines nothing', () => {
    for (const mediaPrefix of ['', 'trust', '/trust/', 'trust/*', 'tr?st/', 'users/${aws:username}/', 'a b/', 'trust//']) {
      expect(() => declarationKey({ media: ['GetObject'], mediaPrefix }), mediaPrefix).toThrow(/iam\.mediaPrefix/);
    }
    expect(() => declarationKey({ table: ['GetItem'], mediaPrefix: 'trust/' })).toThrow(/without media actions/);
  });
});

describe('refreshTrustedList reaches only trust/ of the media bucket', () => {
  let built: ReturnType<typeof buildApp>;
  let statements: Statement[];
  let mediaArn: unknown;
  beforeAll(() => {
    built = buildApp();
    const api = T.fromStack(built.api);
    const data = T.fromStack(built.data).toJSON() as { Outputs: Record<string, { Value: unknown; Export?: { Name: string } }> };
    // the media bucket's ARN as the api stack imports it from the data stack's export
    const bucketId = built.data.getLogicalId(built.data.mediaBucket.node.defaultChild as CfnElement);
    const exported = Object.values(data.Outputs).filter((o) => JSON.stringify(o.Value) === JSON.stringify({ 'Fn::GetAtt': [bucketId, 'Arn'] }) && o.Export);
    expect(exported).toHaveLength(1);
    mediaArn = { 'Fn::ImportValue': exported[0]!.Export!.Name };
    const def = triggers.find((t) => t.id === 'refreshTrustedList')!;
    expect(def.iam.mediaPrefix).toBe('trust/');
    statements = statementsOfRole(api, roleIdOf(api, functionIdOf(api, def)));
  });
  afterAll(() => built.dispose());

  const s3Statements = () => statements.filter((s) => [s.Action].flat().some((a) => a.startsWith('s3:')));

  it('has its object actions on <media bucket>/trust/* only', () => {
    const objects = s3Statements().filter((s) => [s.Action].flat().some((a) => a !== 's3:ListBucket'));
    expect(objects).toHaveLength(1);
    expect([objects[0]!.Action].flat().sort()).toEqual(['s3:DeleteObject', 's3:GetObject', 's3:PutObject']);
    expect([objects[0]!.Resource].flat()).toEqual([{ 'Fn::Join': ['', [mediaArn, '/trust/*']] }]);
    expect(objects[0]!.Condition).toBeUndefined();
  });

  it('lists the media bucket only with a Prefix under trust/', () => {
    const listing = s3Statements().filter((s) => [s.Action].flat().includes('s3:ListBucket'));
    expect(listing).toHaveLength(1);
    expect([listing[0]!.Action].flat()).toEqual(['s3:ListBucket']);
    expect([listing[0]!.Resource].flat()).toEqual([mediaArn]);
    expect(listing[0]!.Condition).toEqual({ StringLike: { 's3:prefix': ['trust/*'] } });
  });

  it('grants nothing on the media bucket as a whole (<media bucket>/*)', () => {
    const whole = JSON.stringify({ 'Fn::Join': ['', [mediaArn, '/*']] });
    for (const s of statements) {
      for (const resource of [s.Resource].flat()) expect(JSON.stringify(resource)).not.toBe(whole);
    }
    // and its S3 statements name nothing but those two resources
    expect(new Set(s3Statements().flatMap((s) => [s.Resource].flat().map((r) => JSON.stringify(r))))).toEqual(
      new Set([JSON.stringify(mediaArn), JSON.stringify({ 'Fn::Join': ['', [mediaArn, '/trust/*']] })]),
    );
  });
});
