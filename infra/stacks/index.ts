import { type App, type Environment } from 'aws-cdk-lib';
import type { RouteDef, TriggerDef } from '../../functions/routes';
import { ApiStack, type RouteThrottle } from './api-stack';
import { AuthStack } from './auth-stack';
import { DataStack } from './data-stack';
import { EDGE_REGION, EdgeStack } from './edge-stack';
import { partiesEnvironment, readDeployConfig, type DeployConfig } from './deploy-config';
import { WebStack } from './web-stack';

export interface ProductStacks {
  config: DeployConfig;
  data: DataStack;
  auth: AuthStack;
  api: ApiStack;
  edge: EdgeStack;
  web: WebStack;
}

export interface ProductStacksOptions {
  /** the built SPA; omitted: only config.json is deployed */
  webDistPath?: string;
  /** the route manifest; defaults to functions/routes.ts (tests pass their own) */
  manifest?: { routes?: readonly RouteDef[]; triggers?: readonly TriggerDef[] };
  /** per-route API limits; defaults to ROUTE_THROTTLE in api-stack.ts */
  routeThrottle?: RouteThrottle;
}

/**
 * The product's stacks and their wiring:
 * data (table, buckets) <- auth (user pool + Cognito triggers) <- api (HTTP API, functions,
 * S3/schedule triggers) <- web (CloudFront, SPA, config.json), and edge (the WAF web ACL, in
 * us-east-1) <- web.
 */
/** The product's region when the CLI names none (Milano). */
export const DEFAULT_REGION = 'eu-south-1';

export function createProductStacks(app: App, options: ProductStacksOptions = {}): ProductStacks {
  const config = readDeployConfig(app);
  // An explicit region (the CLI's, else DEFAULT_REGION): the WAF web ACL lives in us-east-1
  // and the web stack reads it across regions, which CDK allows only between stacks whose
  // regions are known. The account stays the CLI's, or is resolved at deploy (synth works
  // offline, no lookups).
  const env: Environment = { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION ?? DEFAULT_REGION };
  const tags = { project: 'opzione-casa' };

  const data = new DataStack(app, 'OpzioneCasaData', { env, tags, description: 'Opzione Casa: table and buckets' });

  const environment: Record<string, string> = {
    TABLE_NAME: data.table.tableName,
    MEDIA_BUCKET: data.mediaBucket.bucketName,
    OMI_BUCKET: data.omiBucket.bucketName,
    MAIL_FROM: config.mailFrom,
    BACKOFFICE_EMAIL: config.backofficeEmail,
    APP_URL: config.appUrl,
    TOKEN_TTL_DAYS: String(config.tokenTtlDays),
    // grantee and delegatee named in the option and delegation PDFs
    ...partiesEnvironment(config),
  };
  const baseResources = {
    table: data.table,
    mediaBucket: data.mediaBucket,
    omiBucket: data.omiBucket,
    mailFrom: config.mailFrom,
  };
  // Stripe's secret: only its name reaches the payment functions, which read it at run time
  // (functions/lib/secrets.ts); neither its values nor a dynamic reference are in any template
  const stripe = config.stripe ? { secretName: config.stripe.secretName } : undefined;

  const auth = new AuthStack(app, 'OpzioneCasaAuth', {
    env,
    tags,
    description: 'Opzione Casa: Cognito user pool and its triggers',
    resources: { ...baseResources, environment },
    triggers: options.manifest?.triggers,
  });

  const api = new ApiStack(app, 'OpzioneCasaApi', {
    env,
    tags,
    description: 'Opzione Casa: HTTP API and its functions',
    resources: {
      ...baseResources,
      userPool: auth.userPool,
      environment: {
        ...environment,
        USER_POOL_ID: auth.userPool.userPoolId,
        USER_POOL_CLIENT_ID: auth.userPoolClient.userPoolClientId,
      },
      ...(stripe ? { stripe } : {}),
    },
    userPoolClient: auth.userPoolClient,
    routes: options.manifest?.routes,
    triggers: options.manifest?.triggers,
    routeThrottle: options.routeThrottle,
    alarmEmail: config.alarmEmail,
    // the Cognito triggers' errors raise an alarm like the other functions'
    watchedFunctions: Object.fromEntries(Object.entries(auth.triggerFunctions).map(([fnId, f]) => [fnId, f.fn])),
  });

  const edge = new EdgeStack(app, 'OpzioneCasaEdge', {
    env: { ...env, region: EDGE_REGION },
    tags,
    description: 'Opzione Casa: AWS WAF web ACL of the CloudFront distribution (us-east-1)',
  });

  const web = new WebStack(app, 'OpzioneCasaWeb', {
    env,
    tags,
    description: 'Opzione Casa: CloudFront, SPA and config.json',
    config,
    apiDomain: api.apiDomain,
    userPool: auth.userPool,
    userPoolClient: auth.userPoolClient,
    logBucket: data.logBucket,
    mediaBucket: data.mediaBucket,
    omiBucket: data.omiBucket,
    originSecret: api.originSecret,
    webAclArn: edge.webAcl.attrArn,
    webDistPath: options.webDistPath,
  });

  return { config, data, auth, api, edge, web };
}
