import { CfnOutput, Duration, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpJwtAuthorizer } from 'aws-cdk-lib/aws-apigatewayv2-authorizers';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type * as cognito from 'aws-cdk-lib/aws-cognito';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as s3n from 'aws-cdk-lib/aws-s3-notifications';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import { routes as manifestRoutes, triggers as manifestTriggers, type RouteDef, type TriggerDef } from '../../functions/routes';
import { Alarms } from '../constructs/alarms';
import { ManifestFunction, type FunctionResources } from '../constructs/manifest-function';
import { acknowledge, acknowledgeFindings, LAMBDA_BASIC_EXECUTION } from '../constructs/nag';

/** API paths are served under /api, so CloudFront forwards /api/* to the API unchanged. */
export const API_PREFIX = '/api';

/** Stage-wide limits: requests per second and burst, shared by all callers. */
export const DEFAULT_THROTTLE = { rateLimit: 20, burstLimit: 40 } as const;

/**
 * Per-route limits by route id, stricter than the stage default. API Gateway limits are per
 * route, not per caller: per-IP limits for the public submission routes belong in the
 * handler (a DynamoDB counter keyed by the caller's IP, answering TooManyRequestsError) or
 * in a WAF rate-based rule on the CloudFront distribution (web stack).
 */
/** the anonymous submission routes: tighter than the default, on top of the per-IP limits in the handlers */
export const ROUTE_THROTTLE: RouteThrottle = {
  submitProperty: { rateLimit: 5, burstLimit: 10 },
  createUpload: { rateLimit: 20, burstLimit: 50 },
};

export type RouteThrottle = Partial<Record<string, { rateLimit: number; burstLimit: number }>>;

export interface ApiStackProps extends StackProps {
  resources: FunctionResources & { userPool: cognito.IUserPool };
  userPoolClient: cognito.IUserPoolClient;
  /** the manifest; defaults to functions/routes.ts */
  routes?: readonly RouteDef[];
  triggers?: readonly TriggerDef[];
  /** per-route limits by route id; defaults to ROUTE_THROTTLE */
  routeThrottle?: RouteThrottle;
  /** who gets the alarms by e-mail (deploy config `alarmEmail`) */
  alarmEmail?: string;
  /** functions of other stacks whose errors raise an alarm too (the auth stack's Cognito triggers), by manifest id */
  watchedFunctions?: Record<string, lambda.IFunction>;
}

/**
 * The HTTP API: one Lambda and one route per manifest route, a Cognito JWT authorizer on
 * every route that is not public. Also the non-HTTP functions of the manifest that are not
 * Cognito triggers: OMI drop (S3 notification) and schedules (EventBridge rules), each with
 * a failed-events queue. Alarms (infra/constructs/alarms.ts): errors of every trigger, a
 * failed-events queue that holds a message, 5xx answers of the API.
 */
export class ApiStack extends Stack {
  readonly httpApi: apigw.HttpApi;
  /** execute-api host name, the CloudFront origin for /api/* */
  readonly apiDomain: string;
  readonly routeFunctions: Record<string, ManifestFunction> = {};
  readonly triggerFunctions: Record<string, ManifestFunction> = {};
  readonly alarms: Alarms;

  constructor(scope: Construct, id: string, props: ApiStackProps) {
    super(scope, id, props);

    // The key of the per-IP rate limit's client hash (functions/lib/rate-limit.ts): generated
    // by Secrets Manager when the stack is first deployed, so it differs between deployments
    // and is in no template; CloudFormation resolves it into the functions' environment.
    const ipHashSalt = new secretsmanager.Secret(this, 'IpHashSalt', {
      description: 'Opzione Casa: salt of the per-IP rate limit hashes, made once per deployment',
      generateSecretString: { passwordLength: 48, excludePunctuation: true, includeSpace: false },
      removalPolicy: RemovalPolicy.DESTROY,
    });
    acknowledge(ipHashSalt, {
      id: 'AwsSolutions-SMG4',
      reason: 'A hash salt, not a credential: rotating it would only restart the open rate-limit windows, and the functions read it at deploy',
    });
    const resources = {
      ...props.resources,
      environment: { ...props.resources.environment, IP_HASH_SALT: ipHashSalt.secretValue.unsafeUnwrap() },
    };
    this.alarms = new Alarms(this, 'Alarms', { email: props.alarmEmail });

    const accessLogs = new logs.LogGroup(this, 'AccessLogs', {
      retention: logs.RetentionDays.THREE_MONTHS,
      removalPolicy: RemovalPolicy.DESTROY,
    });

    this.httpApi = new apigw.HttpApi(this, 'HttpApi', {
      description: 'Opzione Casa API, served by CloudFront under /api',
      createDefaultStage: false,
    });
    const stage = new apigw.HttpStage(this, 'DefaultStage', {
      httpApi: this.httpApi,
      stageName: '$default',
      autoDeploy: true,
      throttle: DEFAULT_THROTTLE,
      accessLogSettings: {
        destination: new apigw.LogGroupLogDestination(accessLogs),
        format: AccessLogFormat.custom(
          JSON.stringify({
            requestId: '$context.requestId',
            ip: '$context.identity.sourceIp',
            requestTime: '$context.requestTime',
            method: '$context.httpMethod',
            path: '$context.path',
            routeKey: '$context.routeKey',
            status: '$context.status',
            responseLength: '$context.responseLength',
            latency: '$context.responseLatency',
            integrationError: '$context.integrationErrorMessage',
            authorizerError: '$context.authorizer.error',
            userAgent: '$context.identity.userAgent',
          }),
        ),
      },
    });

    // ID tokens of the SPA's app client: their `aud` is the client id
    const authorizer = new HttpJwtAuthorizer(
      'CognitoJwt',
      `https://cognito-idp.${this.region}.amazonaws.com/${resources.userPool.userPoolId}`,
      { jwtAudience: [props.userPoolClient.userPoolClientId] },
    );

    const routeThrottles: Record<string, { rateLimit: number; burstLimit: number }> = {};
    for (const def of props.routes ?? manifestRoutes) {
      const fn = new ManifestFunction(this, `${pascal(def.id)}Route`, { def, resources });
      this.routeFunctions[def.id] = fn;
      const isPublic = def.access === 'public';
      const [route] = this.httpApi.addRoutes({
        path: `${API_PREFIX}${def.path}`,
        methods: [apigw.HttpMethod[def.method]],
        integration: new HttpLambdaIntegration(`${pascal(def.id)}Integration`, fn.fn),
        authorizer: isPublic ? new apigw.HttpNoneAuthorizer() : authorizer,
      });
      if (isPublic && route) {
        acknowledge(route, {
          id: 'AwsSolutions-APIG4',
          reason: `Route ${def.id} is public by design: access 'public' in functions/routes.ts`,
        });
      }
      const throttle = (props.routeThrottle ?? ROUTE_THROTTLE)[def.id];
      if (throttle) routeThrottles[`${def.method} ${API_PREFIX}${def.path}`] = throttle;
    }
    if (Object.keys(routeThrottles).length > 0) {
      (stage.node.defaultChild as apigw.CfnStage).routeSettings = Object.fromEntries(
        Object.entries(routeThrottles).map(([key, t]) => [key, { ThrottlingRateLimit: t.rateLimit, ThrottlingBurstLimit: t.burstLimit }]),
      );
    }

    this.addTriggers(props.triggers ?? manifestTriggers, resources);

    for (const [fnId, fn] of Object.entries(props.watchedFunctions ?? {})) {
      this.alarms.functionErrors(pascal(fnId), fn, `Trigger ${fnId}`);
    }
    this.alarms.alarm('Api5xxAlarm', this.httpApi.metricServerError({ period: Duration.minutes(5), statistic: 'Sum' }), {
      description: 'The API answered 5xx (a function failed or timed out): see the access logs and the function logs',
    });

    this.apiDomain = `${this.httpApi.apiId}.execute-api.${this.region}.${this.urlSuffix}`;
    new CfnOutput(this, 'ApiEndpoint', { value: this.httpApi.apiEndpoint });
  }

  private addTriggers(triggers: readonly TriggerDef[], resources: FunctionResources): void {
    // Imported, not the data stack's Bucket object: the notification (a custom resource)
    // is then created in this stack; on the data stack's bucket it would make the data stack
    // depend on these functions, and this stack already depends on the data stack.
    const omiDrop = s3.Bucket.fromBucketName(this, 'OmiDropBucketRef', resources.omiBucket.bucketName);
    let notifications = false;

    for (const def of triggers) {
      if (def.source !== 's3:omiDrop' && def.source !== 'schedule') continue;
      const fn = new ManifestFunction(this, `${pascal(def.id)}Trigger`, { def, resources });
      this.triggerFunctions[def.id] = fn;
      // async invocations: after Lambda's retries a failed event goes to its own queue
      const failed = this.alarms.failedEventsQueue(pascal(def.id), fn.fn, `Trigger ${def.id}`);
      this.alarms.functionErrors(pascal(def.id), fn.fn, `Trigger ${def.id}`);
      if (def.source === 's3:omiDrop') {
        omiDrop.addEventNotification(s3.EventType.OBJECT_CREATED, new s3n.LambdaDestination(fn.fn));
        notifications = true;
      } else {
        if (!def.schedule) throw new Error(`Manifest trigger ${def.id}: a schedule needs its expression`);
        new events.Rule(this, `${pascal(def.id)}Schedule`, {
          description: `${def.id}: ${def.schedule}`,
          schedule: events.Schedule.expression(def.schedule),
          // an event EventBridge cannot deliver (e.g. a missing permission) goes to the same queue
          targets: [new targets.LambdaFunction(fn.fn, { retryAttempts: 2, maxEventAge: Duration.hours(1), deadLetterQueue: failed })],
        });
      }
    }

    if (notifications) {
      // CDK's singleton handler that writes the bucket notification configuration
      const handler = this.node.tryFindChild('BucketNotificationsHandler050a0587b7544547bf325f094a3db834');
      if (handler) {
        acknowledgeFindings(handler, LAMBDA_BASIC_EXECUTION, {
          id: 'AwsSolutions-IAM5',
          findings: /^Resource::\*$/,
          reason: 'CDK BucketNotificationsHandler: s3:PutBucketNotification on the bucket it is given at deploy time',
        });
      }
    }
  }
}

function pascal(id: string): string {
  return id.charAt(0).toUpperCase() + id.slice(1);
}
