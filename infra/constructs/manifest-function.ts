import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import type * as cognito from 'aws-cdk-lib/aws-cognito';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import type { Grant } from '../../functions/routes';
import { acknowledge, acknowledgeFindings, LAMBDA_BASIC_EXECUTION } from './nag';
import { ORIGIN_SECRET_CACHE_SECONDS } from './origin-secret-rotation';

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

export const DEFAULT_TIMEOUT_SECONDS = 10;
export const DEFAULT_MEMORY_MB = 512;

/** What the manifest says about one function (a route or a trigger). */
export interface FunctionDef {
  id: string;
  handler: string;
  grants: readonly Grant[];
  timeoutSeconds?: number;
  memoryMb?: number;
}

/** The resources a grant can point at; `userPool` only where some function needs it. */
export interface FunctionResources {
  table: dynamodb.ITable;
  mediaBucket: s3.IBucket;
  omiBucket: s3.IBucket;
  userPool?: cognito.IUserPool;
  /** the only sender address `ses:send` allows */
  mailFrom: string;
  /** variables read by functions/lib/config.ts */
  environment: Record<string, string>;
  /**
   * The Stripe secrets (CloudFormation dynamic references, resolved at deploy) put in the
   * environment of the functions with the 'stripe' grant only; absent: card payments are off.
   */
  stripe?: { secretKey: string; webhookSecret: string };
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

/** Cognito actions behind the `cognito:admin` grant: group membership and user lifecycle. */
export const COGNITO_ADMIN_ACTIONS = [
  'cognito-idp:AdminAddUserToGroup',
  'cognito-idp:AdminRemoveUserFromGroup',
  'cognito-idp:AdminListGroupsForUser',
  'cognito-idp:AdminGetUser',
  'cognito-idp:AdminCreateUser',
  'cognito-idp:AdminDeleteUser',
  'cognito-idp:AdminUpdateUserAttributes',
  'cognito-idp:AdminDisableUser',
  'cognito-idp:AdminEnableUser',
  'cognito-idp:AdminUserGlobalSignOut',
  'cognito-idp:ListUsers',
  'cognito-idp:ListUsersInGroup',
];

/**
 * One Lambda for one manifest entry: functions/<handler>.ts bundled with the local esbuild,
 * its own log group, and exactly the grants the entry lists.
 */
export class ManifestFunction extends Construct {
  readonly fn: NodejsFunction;

  constructor(scope: Construct, id: string, props: ManifestFunctionProps) {
    super(scope, id);
    const { def, resources } = props;
    const entry = join(REPO_ROOT, 'functions', `${def.handler}.ts`);
    if (!existsSync(entry)) throw new Error(`Manifest entry ${def.id}: functions/${def.handler}.ts does not exist`);

    const logGroup = new logs.LogGroup(this, 'Logs', {
      retention: logs.RetentionDays.ONE_MONTH,
      removalPolicy: RemovalPolicy.DESTROY,
    });

    // HTTP routes with the same grants share one execution role (see routeRole): each still
    // has exactly its entry's permissions, and the API stack stays under CloudFormation's 500
    // resources per stack. Triggers keep a role each (their failure queues differ).
    const shared = 'method' in def ? routeRole(this, def.grants) : undefined;

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
      },
      paramsAndSecrets: props.originSecret
        ? lambda.ParamsAndSecretsLayerVersion.fromVersion(lambda.ParamsAndSecretsVersions.V1_0_103, {
            secretsManagerTtl: Duration.seconds(ORIGIN_SECRET_CACHE_SECONDS),
            logLevel: lambda.ParamsAndSecretsLogLevel.WARN,
          })
        : undefined,
      bundling: {
        // ESM: the repo is "type": "module" and some dependencies (jose) ship ESM only.
        format: OutputFormat.ESM,
        target: 'node22',
        mainFields: ['module', 'main'],
        // CommonJS dependencies inside an ESM bundle still call require()
        banner: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
        minify: true,
        // error classes set `name` from the class name (functions/lib/errors.ts): keep it
        keepNames: true,
        sourceMap: true,
        sourcesContent: false,
        // The SDK is bundled, not taken from the runtime: the versions in package-lock.json are
        // the ones the tests ran, and lib-dynamodb always matches client-dynamodb.
        bundleAwsSDK: true,
      },
    });

    const grantee: iam.IGrantable = shared ? shared.role : this.fn;
    const aclScope: Construct = shared ? shared.role : this;
    if (!shared || shared.isNew) {
      for (const grant of new Set(def.grants)) this.applyGrant(grant, resources, grantee, aclScope);
    }
    props.originSecret?.grantRead(this.fn);
    // what is not IAM: every function of the entry
    if (def.grants.includes('stripe') && resources.stripe) {
      this.fn.addEnvironment('STRIPE_SECRET_KEY', resources.stripe.secretKey);
      this.fn.addEnvironment('STRIPE_WEBHOOK_SECRET', resources.stripe.webhookSecret);
    }

    acknowledge(this.fn, {
      id: 'AwsSolutions-L1',
      reason: 'Runtime pinned to nodejs22.x on purpose (docs/architecture.md, esbuild target node22); upgraded together',
    });
    acknowledgeFindings(
      aclScope,
      LAMBDA_BASIC_EXECUTION,
      {
        id: 'AwsSolutions-IAM5',
        findings: /^Resource::.*\/index\/\*$/,
        reason: 'table grants include the table\'s GSIs (gsi1..gsi3), which the access patterns query',
      },
      {
        id: 'AwsSolutions-IAM5',
        findings: /^Resource::(?!.*\/index\/\*$).*Bucket.*\/\*$/,
        reason: 'object keys are per property and per user: the bucket is the boundary, the handler checks ownership of the key',
      },
      {
        id: 'AwsSolutions-IAM5',
        findings: /^Action::s3:(GetObject|GetBucket|List|DeleteObject|Abort)\*$/,
        reason: 'action groups of the CDK bucket grants, limited to the one bucket the manifest grants',
      },
      {
        id: 'AwsSolutions-IAM5',
        findings: /^Resource::arn:(<AWS::Partition>|aws[\w-]*):ses:(<AWS::Region>|[\w-]+):(<AWS::AccountId>|\d{12}):identity\/\*$/,
        reason: 'SES checks sender and (in the sandbox) recipient identities; the ses:FromAddress condition allows only MAIL_FROM as sender',
      },
    );
  }

  /** `fn`: who receives the permissions (the function, or the shared role of its grants); `ackScope`: where nag acknowledgements go. */
  private applyGrant(grant: Grant, r: FunctionResources, fn: iam.IGrantable, ackScope: Construct): void {
    const addToPolicy = (statement: iam.PolicyStatement) => fn.grantPrincipal.addToPrincipalPolicy(statement);
    switch (grant) {
      case 'table:read':
        r.table.grantReadData(fn);
        return;
      case 'table:write':
        r.table.grantReadWriteData(fn);
        return;
      // S3 read and write are separate: signing an upload needs PutObject, not List
      case 'media:read':
        r.mediaBucket.grantRead(fn);
        return;
      case 'media:write':
        r.mediaBucket.grantWrite(fn);
        return;
      case 'media:tag':
        // only the tags of objects (a submission removes the draft tag); no PutObject
        addToPolicy(new iam.PolicyStatement({ actions: ['s3:PutObjectTagging'], resources: [r.mediaBucket.arnForObjects('*')] }));
        return;
      case 'omi:read':
        r.omiBucket.grantRead(fn);
        return;
      case 'omi:write':
        r.omiBucket.grantWrite(fn);
        return;
      case 'ses:send':
        addToPolicy(
          new iam.PolicyStatement({
            actions: ['ses:SendEmail', 'ses:SendRawEmail'],
            resources: [Stack.of(this).formatArn({ service: 'ses', resource: 'identity', resourceName: '*' })],
            conditions: { StringEquals: { 'ses:FromAddress': r.mailFrom } },
          }),
        );
        return;
      case 'cognito:admin': {
        if (!r.userPool) throw new Error('cognito:admin needs the user pool');
        // A separate policy, not the role's default one: the function depends on its default
        // policy, so for a Cognito trigger (pool -> function) a pool ARN there would close the
        // cycle pool -> function -> default policy -> pool. Nothing depends on this policy.
        new iam.Policy(ackScope, 'CognitoAdmin', {
          roles: [fn instanceof lambda.Function ? fn.role! : (fn as iam.IRole)],
          statements: [new iam.PolicyStatement({ actions: COGNITO_ADMIN_ACTIONS, resources: [r.userPool.userPoolArn] })],
        });
        return;
      }
      case 'rekognition:compare':
        // CompareFaces with image bytes (never S3 objects): it acts on no AWS resource
        addToPolicy(new iam.PolicyStatement({ actions: ['rekognition:CompareFaces'], resources: ['*'] }));
        acknowledgeFindings(ackScope, {
          id: 'AwsSolutions-IAM5',
          findings: /^Resource::\*$/,
          reason: 'rekognition:CompareFaces supports no resource-level permissions (it compares image bytes); the only action in that statement',
        });
        return;
      case 'stripe':
        // no IAM: the secrets are resolved by CloudFormation at deploy into the environment of
        // these functions only (in the constructor, for every function of the entry)
        return;
      default: {
        const unknown: never = grant;
        throw new Error(`Unknown grant ${String(unknown)}`);
      }
    }
  }
}

/**
 * The execution role shared by the HTTP route functions of a stack that have the same grants
 * ('stripe' is environment, not IAM): made by the first such function (`isNew`: it applies the
 * grants), reused by the others. One role and one policy per set of grants instead of per
 * function: ~70 routes use ~20 sets.
 */
function routeRole(scope: Construct, grants: readonly Grant[]): { role: iam.Role; isNew: boolean } {
  const stack = Stack.of(scope);
  const holder = (stack.node.tryFindChild('RouteRoles') as Construct | undefined) ?? new Construct(stack, 'RouteRoles');
  const set = [...new Set(grants.filter((g) => g !== 'stripe'))].sort();
  const id = `Grants${set.map((g) => g.replace(/(^|[^a-z0-9])([a-z0-9])/gi, (_m, _s, c: string) => c.toUpperCase())).join('') || 'None'}`;
  const existing = holder.node.tryFindChild(id) as iam.Role | undefined;
  if (existing) return { role: existing, isNew: false };
  const role = new iam.Role(holder, id, {
    assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
    description: `Opzione Casa: the API functions with grants [${set.join(', ')}]`,
    managedPolicies: [iam.ManagedPolicy.fromAwsManagedPolicyName('service-role/AWSLambdaBasicExecutionRole')],
  });
  return { role, isNew: true };
}
