import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { inject } from 'vitest';
import type { RouteDef, TriggerDef } from '../../functions/routes';
import { createProductStacks, type ProductStacksOptions } from '../../infra/stacks';
import { FEATURE_FLAGS } from '../../infra/stacks/deploy-config';

/**
 * A complete deploy context with valid, non-demo values (a made-up company): what a deploy
 * must set (infra/stacks/deploy-config.ts, REQUIRED_CONTEXT). Every test app gets it unless
 * it asks for `requiredContext: false`; `context` overrides it key by key.
 */
export const VALID_DEPLOY_CONTEXT = {
  company: { name: 'Casa Esempio S.r.l.', address: 'Via Roma 1, 10121 Torino (TO)', vatNumber: 'IT09876543217', email: 'info@casa-esempio.test' },
  grantee: { name: 'Acquisti Esempio S.p.A.', vatNumber: '11223344554', address: 'Corso Italia 5, 20122 Milano (MI)' },
  delegatee: { company: 'Pratiche Esempio S.r.l.', administrator: 'Anna Verdi' },
  bankTransfer: { iban: 'IT13L0306909606100000012345' },
} as const;

export interface BuildOptions extends ProductStacksOptions {
  context?: Record<string, unknown>;
  /** false: no VALID_DEPLOY_CONTEXT, only `context` (the synth must then refuse) */
  requiredContext?: boolean;
  /** CDK's own CloudFormation template checks: thorough but ~3 s, so only where asked */
  cloudFormationValidation?: boolean;
}

/**
 * The product app as `cdk synth` builds it, minus esbuild: the empty bundling-stacks list
 * makes NodejsFunction skip bundling, so a synth takes about a second. `dispose()` removes
 * the cloud assembly (it holds a 22 MB CLI layer for BucketDeployment).
 */
export function buildApp(options: BuildOptions = {}) {
  if (Object.keys(options).length === 0) return defaultApp();
  return synthesizeApp(options);
}

let shared: ReturnType<typeof synthesizeApp> | undefined;

/**
 * The default app (the real manifest, VALID_DEPLOY_CONTEXT) is built once per test worker and shared
 * by every file that asks for it (the infra project runs without isolation): its templates
 * are only read. Its `dispose()` does nothing; the run's folder goes at the end
 * (test/infra/global-setup.ts).
 */
function defaultApp(): ReturnType<typeof synthesizeApp> {
  shared ??= synthesizeApp({});
  return { ...shared, dispose: () => {} };
}

function synthesizeApp(options: BuildOptions) {
  const outdir = mkdtempSync(join(inject('infraOutdir'), 'app-'));
  const app = new App({
    outdir,
    builtinCloudFormationValidation: options.cloudFormationValidation ?? false,
    context: { ...FEATURE_FLAGS, 'aws:cdk:bundling-stacks': [], ...(options.requiredContext === false ? {} : VALID_DEPLOY_CONTEXT), ...options.context },
  });
  const dispose = () => rmSync(outdir, { recursive: true, force: true });
  try {
    return { app, ...createProductStacks(app, options), dispose };
  } catch (err) {
    dispose();
    throw err;
  }
}

/**
 * A manifest with what the real one may grow into: every kind of resource and action, two
 * routes with the same declaration, one with the same actions under a media prefix (a role
 * of its own), odd limits, an S3 drop and a schedule trigger. Handlers
 * point at an existing file (only the wiring is under test).
 */
export const FAKE_ROUTES: readonly RouteDef[] = [
  { id: 'health', method: 'GET', path: '/health', handler: 'system/health', access: 'public', iam: {} },
  {
    id: 'submitRequest',
    method: 'POST',
    path: '/requests',
    handler: 'system/health',
    access: 'public',
    iam: { table: ['PutItem', 'UpdateItem'], media: ['PutObject', 'PutObjectTagging'], ses: ['SendEmail'] },
    timeoutSeconds: 29,
    memoryMb: 1024,
  },
  {
    id: 'adminEverything',
    method: 'DELETE',
    path: '/admin/users/{userId}',
    handler: 'system/health',
    access: ['admin'],
    iam: {
      table: ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem', 'ConditionCheckItem', 'BatchWriteItem'],
      indexes: ['Query'],
      media: ['GetObject', 'PutObject', 'PutObjectTagging', 'DeleteObject', 'ListBucket'],
      omi: ['GetObject', 'PutObject', 'DeleteObject', 'ListBucket'],
      ses: ['SendEmail'],
      cognito: ['AdminGetUser', 'AdminDeleteUser', 'ListUsers'],
      rekognition: ['CompareFaces'],
    },
  },
  { id: 'myProperties', method: 'GET', path: '/properties/mine', handler: 'system/health', access: 'authenticated', iam: { indexes: ['Query'], media: ['GetObject'] } },
  // the same declaration as myProperties: one shared role
  { id: 'myProperty', method: 'GET', path: '/properties/mine/{propertyId}', handler: 'system/health', access: 'authenticated', iam: { media: ['GetObject'], indexes: ['Query'] } },
  // myProperties' actions, but only under a prefix: never its role
  { id: 'trustAnchor', method: 'GET', path: '/trust/anchors/{hash}', handler: 'system/health', access: 'public', iam: { indexes: ['Query'], media: ['GetObject'], mediaPrefix: 'trust/anchors/' } },
];

export const FAKE_TRIGGERS: readonly TriggerDef[] = [
  { id: 'preSignUp', handler: 'auth/pre-sign-up', source: 'cognito:preSignUp', iam: {} },
  { id: 'postConfirmation', handler: 'auth/post-confirmation', source: 'cognito:postConfirmation', iam: { table: ['PutItem'], cognito: ['AdminAddUserToGroup'] } },
  { id: 'importOmi', handler: 'system/health', source: 's3:omiDrop', iam: { omi: ['GetObject', 'DeleteObject'], table: ['BatchWriteItem'] }, timeoutSeconds: 900, memoryMb: 2048 },
  { id: 'dailyReminders', handler: 'system/health', source: 'schedule', schedule: 'cron(0 7 * * ? *)', iam: { indexes: ['Query'], ses: ['SendEmail'] } },
];

export const FAKE_MANIFEST = { routes: FAKE_ROUTES, triggers: FAKE_TRIGGERS };

type Resource = { Type: string; Properties?: Record<string, unknown>; [key: string]: unknown };

/** Logical id of the resource of `type` whose Description is exactly `description`. */
function logicalIdByDescription(template: Template, type: string, description: string): string {
  const found = Object.keys(template.findResources(type, { Properties: { Description: description } }));
  if (found.length !== 1) throw new Error(`Expected one ${type} described "${description}", found ${found.length}`);
  return found[0]!;
}

/** Logical id of the function made for a manifest entry (ManifestFunction's description). */
export function functionIdOf(template: Template, def: { id: string; handler: string }): string {
  return logicalIdByDescription(template, 'AWS::Lambda::Function', `${def.id}: functions/${def.handler}.ts`);
}

export function roleIdOf(template: Template, functionId: string): string {
  const fn = template.toJSON().Resources[functionId] as Resource;
  const role = (fn.Properties!.Role as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
  return role;
}

export interface Statement {
  Action: string | string[];
  Effect: string;
  Resource: unknown;
  Condition?: Record<string, unknown>;
}

/**
 * Every IAM statement of the role: its inline policies, every policy attached to it (default
 * and extra) and the customer managed policies of the template it names (AWS managed ones
 * are not in the template).
 */
export function statementsOfRole(template: Template, roleId: string): Statement[] {
  const resources = template.toJSON().Resources as Record<string, Resource>;
  const role = resources[roleId]!;
  const inline = ((role.Properties!.Policies ?? []) as { PolicyDocument: { Statement: Statement[] } }[]).flatMap((p) => p.PolicyDocument.Statement);
  const managed = ((role.Properties!.ManagedPolicyArns ?? []) as { Ref?: string }[])
    .map((arn) => (arn.Ref ? resources[arn.Ref] : undefined))
    .filter((p): p is Resource => p?.Type === 'AWS::IAM::ManagedPolicy')
    .flatMap((p) => (p.Properties!.PolicyDocument as { Statement: Statement[] }).Statement);
  const policies = template.findResources('AWS::IAM::Policy') as Record<string, Resource>;
  return [
    ...inline,
    ...managed,
    ...Object.values(policies)
      .filter((p) => (p.Properties!.Roles as { Ref: string }[]).some((r) => r.Ref === roleId))
      .flatMap((p) => (p.Properties!.PolicyDocument as { Statement: Statement[] }).Statement),
  ];
}

export function actionsOfRole(template: Template, roleId: string): Set<string> {
  return new Set(statementsOfRole(template, roleId).flatMap((s) => (Array.isArray(s.Action) ? s.Action : [s.Action])));
}
