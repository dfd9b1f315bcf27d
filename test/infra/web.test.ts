import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { Construct } from 'constructs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runtimeConfigSchema } from '../../functions/domain/runtime-config';
import { DEFAULT_APP_URL, readDeployConfig } from '../../infra/stacks/deploy-config';
import { SPA_REWRITE_CODE, VIEWER_IP_CODE } from '../../infra/stacks/web-stack';
import { buildApp, VALID_DEPLOY_CONTEXT } from './helpers';

/** AWS managed policy ids (the same in every account). */
const CACHING_DISABLED = '4135ea2d-6df8-44a3-9df3-4b5a84be39ad';
const ALL_VIEWER_EXCEPT_HOST_HEADER = 'b689b0a8-53d0-40ab-baf2-68738e2966ac';
/** our response headers policy (CSP and the rest, test/infra/edge.test.ts), not the managed SecurityHeadersPolicy */
const SECURITY_HEADERS = { Ref: expect.stringMatching(/^SecurityHeaders/) };

function distributionConfig(template: Template) {
  const [distribution] = Object.values(template.findResources('AWS::CloudFront::Distribution'));
  return distribution!.Properties.DistributionConfig;
}

describe('web stack', () => {
  let template: Template;
  let stacks: ReturnType<typeof buildApp>;

  beforeAll(() => {
    stacks = buildApp();
    template = Template.fromStack(stacks.web);
  });
  afterAll(() => stacks.dispose());

  it('serves the private site bucket through Origin Access Control', () => {
    template.resourceCountIs('AWS::CloudFront::OriginAccessControl', 1);
    const config = distributionConfig(template);
    const s3Origin = config.Origins.find((o: { S3OriginConfig?: unknown }) => o.S3OriginConfig);
    expect(s3Origin.OriginAccessControlId).toEqual({ 'Fn::GetAtt': [expect.any(String), 'Id'] });
    expect(s3Origin.S3OriginConfig).toEqual({ OriginAccessIdentity: '' });
    template.hasResourceProperties('AWS::S3::Bucket', {
      PublicAccessBlockConfiguration: { BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true },
    });
    template.hasResourceProperties('AWS::S3::BucketPolicy', {
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: 'Allow', Principal: { Service: 'cloudfront.amazonaws.com' }, Action: 's3:GetObject' }),
        ]),
      },
    });
  });

  it('rewrites client-side routes with a CloudFront Function, not with error responses', () => {
    const config = distributionConfig(template);
    expect(config.DefaultRootObject).toBe('index.html');
    expect(config.CustomErrorResponses).toBeUndefined();
    expect(config.DefaultCacheBehavior).toMatchObject({
      ViewerProtocolPolicy: 'redirect-to-https',
      ResponseHeadersPolicyId: SECURITY_HEADERS,
      FunctionAssociations: [{ EventType: 'viewer-request', FunctionARN: { 'Fn::GetAtt': [expect.any(String), 'FunctionARN'] } }],
    });
    template.hasResourceProperties('AWS::CloudFront::Function', {
      FunctionCode: SPA_REWRITE_CODE,
      FunctionConfig: Match.objectLike({ Runtime: 'cloudfront-js-2.0' }),
    });
  });

  it('forwards /api/* uncached, with every method and all viewer headers but Host, to the HTTP API', () => {
    const config = distributionConfig(template);
    expect(config.CacheBehaviors).toHaveLength(1);
    const [api] = config.CacheBehaviors;
    expect(api).toMatchObject({
      PathPattern: '/api/*',
      CachePolicyId: CACHING_DISABLED,
      OriginRequestPolicyId: ALL_VIEWER_EXCEPT_HOST_HEADER,
      ResponseHeadersPolicyId: SECURITY_HEADERS,
      ViewerProtocolPolicy: 'https-only',
      AllowedMethods: ['GET', 'HEAD', 'OPTIONS', 'PUT', 'PATCH', 'POST', 'DELETE'],
      FunctionAssociations: [{ EventType: 'viewer-request', FunctionARN: { 'Fn::GetAtt': [expect.any(String), 'FunctionARN'] } }],
    });
    // the viewer's IP reaches the API for the per-IP limits
    template.hasResourceProperties('AWS::CloudFront::Function', { FunctionCode: VIEWER_IP_CODE });
    const origin = config.Origins.find((o: { Id: string }) => o.Id === api.TargetOriginId);
    expect(origin.CustomOriginConfig).toMatchObject({ OriginProtocolPolicy: 'https-only', OriginSSLProtocols: ['TLSv1.2'] });
    expect(JSON.stringify(origin.DomainName)).toMatch(/OpzioneCasaApi:ExportsOutputRefHttpApi.*execute-api/);
  });

  it('logs requests to the log bucket', () => {
    expect(distributionConfig(template).Logging).toMatchObject({ Prefix: 'cloudfront/' });
  });

  it('writes config.json at deploy, not cached, with the runtime configuration', () => {
    const deployments = Object.values(template.findResources('Custom::CDKBucketDeployment'));
    // no web/dist in tests: only config.json
    expect(deployments).toHaveLength(1);
    expect(deployments[0]!.Properties).toMatchObject({
      SystemMetadata: { 'cache-control': 'no-cache' },
      Prune: false,
      DistributionPaths: ['/*'],
    });
    const config = runtimeConfigSchema.parse(stacks.web.runtimeConfig);
    expect(config).toMatchObject({ apiUrl: '/api', privacyUrl: '/privacy', voiceWidget: null, company: VALID_DEPLOY_CONTEXT.company });
    expect(stacks.web.resolve(config.userPoolId)).toEqual({ 'Fn::ImportValue': expect.stringMatching(/^OpzioneCasaAuth:.*UserPool/) });
    expect(stacks.web.resolve(config.userPoolClientId)).toEqual({ 'Fn::ImportValue': expect.stringMatching(/^OpzioneCasaAuth:.*WebClient/) });
    // the stacks have an explicit region (infra/stacks/index.ts, DEFAULT_REGION without the CLI's)
    expect(stacks.web.resolve(config.region)).toBe('eu-south-1');
  });
});

describe('web stack with a built SPA and context', () => {
  let dist: string;
  let stacks: ReturnType<typeof buildApp>;
  let template: Template;

  beforeAll(() => {
    dist = mkdtempSync(join(tmpdir(), 'web-dist-'));
    mkdirSync(join(dist, 'assets'));
    writeFileSync(join(dist, 'index.html'), '<!doctype html><div id="root"></div>');
    writeFileSync(join(dist, 'assets', 'index-abc123.js'), 'console.log(1)');
    stacks = buildApp({
      webDistPath: dist,
      context: {
        company: { ...VALID_DEPLOY_CONTEXT.company, name: 'Casa Prova S.r.l.' },
        voiceWidget: { projectId: 'vw-123', scriptUrl: 'https://widget.example.test/voice.js' },
        domainName: 'www.example.test',
        certificateArn: 'arn:aws:acm:us-east-1:123456789012:certificate/abc',
      },
    });
    template = Template.fromStack(stacks.web);
  });
  afterAll(() => {
    stacks.dispose();
    rmSync(dist, { recursive: true, force: true });
  });

  it('deploys hashed assets with a long cache and the rest revalidated', () => {
    template.hasResourceProperties('Custom::CDKBucketDeployment', {
      SystemMetadata: { 'cache-control': 'public, max-age=31536000, immutable' },
      Include: ['assets/*'],
      Prune: false,
    });
    template.hasResourceProperties('Custom::CDKBucketDeployment', {
      SystemMetadata: { 'cache-control': 'no-cache' },
      Exclude: ['assets/*'],
      Prune: true,
    });
  });

  it('takes company data and the voice widget from context', () => {
    expect(stacks.web.runtimeConfig.company).toEqual({ ...VALID_DEPLOY_CONTEXT.company, name: 'Casa Prova S.r.l.' });
    expect(stacks.web.runtimeConfig.voiceWidget).toEqual({ projectId: 'vw-123', scriptUrl: 'https://widget.example.test/voice.js', color: '#ff6603', ballSize: 64 });
  });

  it('serves the custom domain with its certificate and TLS 1.2, and uses it as APP_URL', () => {
    expect(distributionConfig(template)).toMatchObject({
      Aliases: ['www.example.test'],
      ViewerCertificate: { MinimumProtocolVersion: 'TLSv1.2_2021', SslSupportMethod: 'sni-only' },
    });
    expect(stacks.config.appUrl).toBe('https://www.example.test');
  });
});

describe('deploy configuration', () => {
  const read = (context: Record<string, unknown>) => {
    const root = new Construct(undefined as never, '');
    for (const [key, value] of Object.entries(context)) root.node.setContext(key, value);
    return readDeployConfig(root);
  };

  it('has defaults for everything but the parties a deploy must name', () => {
    expect(read({ ...VALID_DEPLOY_CONTEXT })).toMatchObject({
      appUrl: DEFAULT_APP_URL,
      mailFrom: 'noreply@opzionecasa.it',
      backofficeEmail: 'backoffice@opzionecasa.it',
      tokenTtlDays: 30,
      company: VALID_DEPLOY_CONTEXT.company,
      voiceWidget: null,
    });
  });

  it('accepts values given with -c (strings) and refuses wrong ones', () => {
    const company = { ...VALID_DEPLOY_CONTEXT.company, email: 'info@example.test' };
    expect(read({ ...VALID_DEPLOY_CONTEXT, tokenTtlDays: '14', company: JSON.stringify(company) })).toMatchObject({ tokenTtlDays: 14, company });
    expect(() => read({ ...VALID_DEPLOY_CONTEXT, mailFrom: 'not-an-address' })).toThrow(/mailFrom/);
    expect(() => read({ ...VALID_DEPLOY_CONTEXT, domainName: 'www.example.test' })).toThrow(/go together/);
  });
});

describe('SPA rewrite function', () => {
  const handler = new Function(`${SPA_REWRITE_CODE}; return handler;`)() as (event: { request: { uri: string } }) => { uri: string };
  const rewrite = (uri: string) => handler({ request: { uri } }).uri;

  it('sends client-side routes to /index.html and leaves files alone', () => {
    expect(rewrite('/')).toBe('/index.html');
    expect(rewrite('/admin/requests/42')).toBe('/index.html');
    expect(rewrite('/privacy')).toBe('/index.html');
    expect(rewrite('/assets/index-abc123.js')).toBe('/assets/index-abc123.js');
    expect(rewrite('/config.json')).toBe('/config.json');
    expect(rewrite('/favicon.ico')).toBe('/favicon.ico');
  });
});
