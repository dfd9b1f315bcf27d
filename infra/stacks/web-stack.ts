import { CfnOutput, Duration, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import * as acm from 'aws-cdk-lib/aws-certificatemanager';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import * as origins from 'aws-cdk-lib/aws-cloudfront-origins';
import type * as cognito from 'aws-cdk-lib/aws-cognito';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as s3deploy from 'aws-cdk-lib/aws-s3-deployment';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { runtimeConfigSchema, type RuntimeConfig } from '../../functions/domain/runtime-config';
import { ORIGIN_HEADER } from '../../functions/lib/origin';
import { BucketCors } from '../constructs/bucket-cors';
import { acknowledge, acknowledgeFindings, LAMBDA_BASIC_EXECUTION } from '../constructs/nag';
import { OriginSecretRotation } from '../constructs/origin-secret-rotation';
import { PrivateBucket } from '../constructs/private-bucket';
import { DEFAULT_APP_URL, type DeployConfig } from './deploy-config';
import { edgeOriginsOf, securityHeaders, type SecurityHeaders } from './security-headers';
import { API_PREFIX } from './api-stack';

/**
 * CloudFront Function (viewer request) on the SPA behaviour: a path whose last segment has
 * no dot is a client-side route and gets the SPA shell. Done here rather than with
 * distribution-wide error responses, which would also turn the API's 403/404 into index.html.
 */
export const SPA_REWRITE_CODE = `function handler(event) {
  var request = event.request;
  var uri = request.uri;
  var lastSegment = uri.substring(uri.lastIndexOf('/') + 1);
  if (lastSegment.indexOf('.') === -1) {
    request.uri = '/index.html';
  }
  return request;
}`;

/**
 * CloudFront Function (viewer request) on /api/*: API Gateway sees CloudFront's address as
 * the source IP, so the viewer's address is passed in `x-viewer-ip` (overwriting anything
 * the client sent) for the per-IP limits of the public routes (functions/lib/http.ts). The
 * API believes it only on requests with the origin secret, which only CloudFront adds.
 */
export const VIEWER_IP_CODE = `function handler(event) {
  event.request.headers['x-viewer-ip'] = { value: event.viewer.ip };
  return event.request;
}`;

export interface WebStackProps extends StackProps {
  config: DeployConfig;
  /** execute-api host name of the HTTP API */
  apiDomain: string;
  userPool: cognito.IUserPool;
  userPoolClient: cognito.IUserPoolClient;
  logBucket: s3.IBucket;
  /** the buckets the browser uploads to and downloads from with presigned URLs (CSP, CORS) */
  mediaBucket: s3.IBucket;
  omiBucket: s3.IBucket;
  /** the api stack's secret CloudFront sends with every API request; rotated here at each deploy */
  originSecret: secretsmanager.ISecret;
  /** the AWS WAF web ACL of the distribution (edge stack, us-east-1) */
  webAclArn: string;
  /** the built SPA (web/dist); without it only config.json is deployed */
  webDistPath?: string;
}

/**
 * The SPA in a private bucket behind CloudFront (Origin Access Control), the API under /api/*
 * on the same origin (no CORS, cookies or tokens cross no origin), and /config.json written
 * at deploy from the other stacks' outputs.
 */
export class WebStack extends Stack {
  readonly siteBucket: s3.Bucket;
  readonly distribution: cloudfront.Distribution;
  readonly runtimeConfig: RuntimeConfig;

  constructor(scope: Construct, id: string, props: WebStackProps) {
    // the web ACL's ARN comes from the edge stack in us-east-1
    super(scope, id, { ...props, crossRegionReferences: true });
    const { config } = props;

    this.siteBucket = new PrivateBucket(this, 'SiteBucket', {
      accessLogs: props.logBucket,
      // only build output: rebuilt and redeployed at will
      removalPolicy: RemovalPolicy.DESTROY,
      autoDeleteObjects: true,
    });

    const spaRewrite = new cloudfront.Function(this, 'SpaRewrite', {
      code: cloudfront.FunctionCode.fromInline(SPA_REWRITE_CODE),
      runtime: cloudfront.FunctionRuntime.JS_2_0,
      comment: 'Client-side routes get /index.html',
    });

    const viewerIp = new cloudfront.Function(this, 'ViewerIp', {
      code: cloudfront.FunctionCode.fromInline(VIEWER_IP_CODE),
      runtime: cloudfront.FunctionRuntime.JS_2_0,
      comment: 'Pass the viewer IP to the API',
    });

    // Only CloudFront may call the API: a new secret at each deploy, sent as an origin header
    // (functions/lib/origin.ts); the distribution is updated once the new version is current.
    const originSecret = new OriginSecretRotation(this, 'OriginSecretRotation', { secret: props.originSecret });

    // CSP, HSTS and the rest on every response, SPA and API (infra/stacks/security-headers.ts)
    const storageOrigins = [props.mediaBucket, props.omiBucket].map((b) => `https://${b.bucketRegionalDomainName}`);
    const responseHeaders = responseHeadersPolicy(
      this,
      securityHeaders(edgeOriginsOf({ region: this.region, voiceWidget: config.voiceWidget }, storageOrigins)),
    );

    const certificate = config.customDomain
      ? acm.Certificate.fromCertificateArn(this, 'Certificate', config.customDomain.certificateArn)
      : undefined;

    this.distribution = new cloudfront.Distribution(this, 'Distribution', {
      comment: 'Opzione Casa: SPA and /api',
      defaultRootObject: 'index.html',
      defaultBehavior: {
        origin: origins.S3BucketOrigin.withOriginAccessControl(this.siteBucket),
        viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        cachePolicy: cloudfront.CachePolicy.CACHING_OPTIMIZED,
        responseHeadersPolicy: responseHeaders,
        functionAssociations: [{ function: spaRewrite, eventType: cloudfront.FunctionEventType.VIEWER_REQUEST }],
        compress: true,
      },
      additionalBehaviors: {
        [`${API_PREFIX}/*`]: {
          origin: new origins.HttpOrigin(props.apiDomain, {
            protocolPolicy: cloudfront.OriginProtocolPolicy.HTTPS_ONLY,
            originSslProtocols: [cloudfront.OriginSslPolicy.TLS_V1_2],
            // replaces any value a viewer sends under that name
            customHeaders: { [ORIGIN_HEADER]: originSecret.headerValue },
          }),
          // a redirect would turn a POST into a GET: plain HTTP is refused instead
          viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.HTTPS_ONLY,
          allowedMethods: cloudfront.AllowedMethods.ALLOW_ALL,
          cachePolicy: cloudfront.CachePolicy.CACHING_DISABLED,
          // everything but Host (API Gateway routes on its own host name); with caching
          // disabled this includes the Authorization header
          originRequestPolicy: cloudfront.OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
          responseHeadersPolicy: responseHeaders,
          functionAssociations: [{ function: viewerIp, eventType: cloudfront.FunctionEventType.VIEWER_REQUEST }],
          compress: true,
        },
      },
      domainNames: config.customDomain ? [config.customDomain.domainName] : undefined,
      certificate,
      // only settable with a custom certificate; the default one is fixed by CloudFront
      minimumProtocolVersion: certificate ? cloudfront.SecurityPolicyProtocol.TLS_V1_2_2021 : undefined,
      httpVersion: cloudfront.HttpVersion.HTTP2_AND_3,
      // Europe and North America edges: the users are in Italy
      priceClass: cloudfront.PriceClass.PRICE_CLASS_100,
      enableLogging: true,
      logBucket: props.logBucket,
      logFilePrefix: 'cloudfront/',
      webAclId: props.webAclArn,
    });
    this.distribution.node.addDependency(originSecret.resource);

    // The buckets' CORS: the distribution's own domain, the custom domain and an app URL set
    // explicitly; set here, once the distribution exists (infra/constructs/bucket-cors.ts).
    const siteOrigins = [
      `https://${this.distribution.distributionDomainName}`,
      ...(config.customDomain ? [`https://${config.customDomain.domainName}`] : []),
      ...(config.appUrl !== DEFAULT_APP_URL ? [config.appUrl] : []),
    ];
    new BucketCors(this, 'BucketCors', {
      buckets: { MediaBucketCors: props.mediaBucket, OmiDropBucketCors: props.omiBucket },
      allowedOrigins: [...new Set(siteOrigins)],
    });

    acknowledge(
      this.distribution,
      {
        id: 'AwsSolutions-CFR1',
        reason: 'No geo restriction: Italian sellers and agents also use the site from abroad',
      },
    );
    if (!certificate) {
      acknowledge(this.distribution, {
        id: 'AwsSolutions-CFR4',
        reason: 'Default *.cloudfront.net certificate (no domainName/certificateArn context): CloudFront does not allow choosing its TLS policy; with a custom domain TLSv1.2_2021 applies',
      });
    }

    this.runtimeConfig = runtimeConfigSchema.parse({
      apiUrl: API_PREFIX,
      region: this.region,
      userPoolId: props.userPool.userPoolId,
      userPoolClientId: props.userPoolClient.userPoolClientId,
      company: config.company,
      privacyUrl: '/privacy',
      voiceWidget: config.voiceWidget,
      payments: { card: config.stripe !== null, bankTransfer: config.bankTransfer },
    } satisfies RuntimeConfig);

    this.deploySite(props.webDistPath);

    new CfnOutput(this, 'AppUrl', { value: `https://${this.distribution.distributionDomainName}` });
    new CfnOutput(this, 'DistributionId', { value: this.distribution.distributionId });
  }

  private deploySite(webDistPath: string | undefined): void {
    const destinationBucket = this.siteBucket;
    if (webDistPath) {
      // Vite puts content-hashed files under assets/: cached for a year, never pruned, so
      // a tab opened before a deploy still loads its chunks.
      new s3deploy.BucketDeployment(this, 'DeployAssets', {
        destinationBucket,
        sources: [s3deploy.Source.asset(webDistPath)],
        exclude: ['*'],
        include: ['assets/*'],
        cacheControl: [s3deploy.CacheControl.fromString('public, max-age=31536000, immutable')],
        prune: false,
        memoryLimit: 512,
      });
    }
    // index.html, config.json and other unhashed files: always revalidated, so a deploy
    // (or a new config.json) is seen at once.
    new s3deploy.BucketDeployment(this, 'DeploySite', {
      destinationBucket,
      sources: [
        ...(webDistPath ? [s3deploy.Source.asset(webDistPath, { exclude: ['config.json'] })] : []),
        s3deploy.Source.jsonData('config.json', this.runtimeConfig),
      ],
      exclude: ['assets/*'],
      cacheControl: [s3deploy.CacheControl.noCache()],
      prune: !!webDistPath,
      distribution: this.distribution,
      distributionPaths: ['/*'],
      memoryLimit: 512,
    });

    for (const child of this.node.children) {
      if (child instanceof Construct && child.node.id.startsWith('Custom::CDKBucketDeployment')) {
        acknowledge(child, {
          id: 'AwsSolutions-L1',
          reason: 'CDK BucketDeployment handler: runtime chosen by aws-cdk-lib',
        });
        acknowledgeFindings(
          child,
          LAMBDA_BASIC_EXECUTION,
          {
            id: 'AwsSolutions-IAM5',
            findings: /^Action::s3:(GetBucket|GetObject|List|Abort|DeleteObject)\*$/,
            reason: 'CDK BucketDeployment handler: the action groups of its bucket grants, reading the CDK asset bucket and writing (and pruning) the site bucket only',
          },
          {
            id: 'AwsSolutions-IAM5',
            findings: /^Resource::arn:(<AWS::Partition>|aws[\w-]*):s3:::cdk-[a-z0-9]+-assets-(<AWS::AccountId>|\d{12})-[\w-]+\/\*$/,
            reason: 'CDK BucketDeployment handler: reads the zipped site from the objects of the CDK bootstrap asset bucket',
          },
          {
            id: 'AwsSolutions-IAM5',
            findings: /^Resource::<SiteBucket[0-9A-F]{8}\.Arn>\/\*$/,
            reason: 'CDK BucketDeployment handler: writes the site files, whose keys are only known at deploy, into the site bucket',
          },
          {
            id: 'AwsSolutions-IAM5',
            findings: /^Resource::\*$/,
            reason: 'CDK BucketDeployment handler: cloudfront:CreateInvalidation and GetInvalidation, which CDK grants on * for the distribution it invalidates after a deploy',
          },
        );
      }
    }
  }
}

/** The distribution's response headers policy: the values of infra/stacks/security-headers.ts, overriding the origin's. */
function responseHeadersPolicy(scope: Construct, h: SecurityHeaders): cloudfront.ResponseHeadersPolicy {
  return new cloudfront.ResponseHeadersPolicy(scope, 'SecurityHeaders', {
    comment: 'Opzione Casa: CSP, HSTS and the other security headers (infra/stacks/security-headers.ts)',
    securityHeadersBehavior: {
      contentSecurityPolicy: { contentSecurityPolicy: h.contentSecurityPolicy, override: true },
      strictTransportSecurity: {
        accessControlMaxAge: Duration.seconds(h.strictTransportSecurity.maxAgeSeconds),
        includeSubdomains: h.strictTransportSecurity.includeSubdomains,
        preload: h.strictTransportSecurity.preload,
        override: true,
      },
      referrerPolicy: { referrerPolicy: h.referrerPolicy as cloudfront.HeadersReferrerPolicy, override: true },
      frameOptions: { frameOption: h.frameOptions as cloudfront.HeadersFrameOption, override: true },
      contentTypeOptions: { override: true },
    },
    customHeadersBehavior: { customHeaders: [{ header: 'Permissions-Policy', value: h.permissionsPolicy, override: true }] },
  });
}
