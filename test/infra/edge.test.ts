/**
 * The edge: only CloudFront reaches the API (a secret origin header, rotated at each
 * deploy, that the API's functions read from Secrets Manager), a WAF web ACL on the
 * distribution (us-east-1), the security headers of infra/stacks/security-headers.ts on
 * every response, and bucket CORS limited to the site's own origins.
 */
import { Match, Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TriggerDef } from '../../functions/routes';
import { ORIGIN_HEADER } from '../../functions/lib/origin';
import { ORIGIN_SECRET_CACHE_SECONDS } from '../../infra/constructs/origin-secret-rotation';
import { WAF_RATE_LIMIT } from '../../infra/stacks/edge-stack';
import { edgeOriginsOf, securityHeaders } from '../../infra/stacks/security-headers';
import { buildApp as buildProductApp, FAKE_MANIFEST, FAKE_ROUTES, FAKE_TRIGGERS, functionIdOf, roleIdOf, statementsOfRole, type BuildOptions } from './helpers';

/** The wiring is the same for any manifest: the small one with every kind of entry keeps these synths fast. */
const buildApp = (options: BuildOptions = {}) => buildProductApp({ manifest: FAKE_MANIFEST, ...options });

/** a template's JSON, loosely typed like Template.toJSON() */
type Json = ReturnType<Template['toJSON']>;
type Resource = { Type: string; Properties: Json; DependsOn?: string[] };

const distributionConfig = (template: Template) => Object.values(template.findResources('AWS::CloudFront::Distribution'))[0]!.Properties.DistributionConfig;
const apiOrigin = (template: Template) => {
  const config = distributionConfig(template);
  const api = config.CacheBehaviors.find((b: { PathPattern: string }) => b.PathPattern === '/api/*');
  return config.Origins.find((o: { Id: string }) => o.Id === api.TargetOriginId);
};

describe('only CloudFront reaches the API', () => {
  let stacks: ReturnType<typeof buildApp>;
  let api: Template;
  let web: Template;
  beforeAll(() => {
    stacks = buildApp();
    api = Template.fromStack(stacks.api);
    web = Template.fromStack(stacks.web);
  });
  afterAll(() => stacks.dispose());

  const secretId = () => stacks.api.getLogicalId(stacks.api.originSecret.node.defaultChild as never);

  it('keeps the origin secret in Secrets Manager, generated there: its value is in no template', () => {
    api.hasResourceProperties('AWS::SecretsManager::Secret', {
      Description: Match.stringLikeRegexp('CloudFront'),
      GenerateSecretString: Match.objectLike({ PasswordLength: 48, ExcludePunctuation: true }),
    });
    expect(api.toJSON().Resources[secretId()].Properties.SecretString).toBeUndefined();
  });

  it('gives every route function the secret\'s ARN (not its value), the secrets extension with a 60 s cache, and read access to that secret only', () => {
    const resources = api.toJSON().Resources as Record<string, Resource>;
    for (const def of FAKE_ROUTES) {
      const fnId = functionIdOf(api, def);
      const fn = resources[fnId]!.Properties;
      expect(fn.Environment.Variables.ORIGIN_SECRET_ARN, def.id).toEqual({ Ref: secretId() });
      expect(fn.Environment.Variables.ORIGIN_SECRET, def.id).toBeUndefined();
      expect(fn.Environment.Variables.SECRETS_MANAGER_TTL, def.id).toBe(String(ORIGIN_SECRET_CACHE_SECONDS));
      expect(JSON.stringify(fn.Layers), def.id).toMatch(/AWS-Parameters-and-Secrets-Lambda-Extension-Arm64/);
      // the origin secret; the IP salt is the other secret a route reads (test/infra/secrets.test.ts)
      const reads = statementsOfRole(api, roleIdOf(api, fnId))
        .filter((s) => [s.Action].flat().some((a) => a.startsWith('secretsmanager:')))
        .flatMap((r) => [r.Resource].flat().map((Resource) => ({ Effect: r.Effect, Action: [r.Action].flat().sort(), Resource })))
        .filter((r) => !JSON.stringify(r.Resource).includes('IpHashSalt'));
      expect(reads, def.id).toEqual([
        { Effect: 'Allow', Action: ['secretsmanager:DescribeSecret', 'secretsmanager:GetSecretValue'], Resource: { Ref: secretId() } },
      ]);
    }
  });

  it('does not give the secret to the functions that are no HTTP route', () => {
    const resources = api.toJSON().Resources as Record<string, Resource>;
    for (const def of (FAKE_TRIGGERS as readonly TriggerDef[]).filter((t) => t.source === 's3:omiDrop' || t.source === 'schedule')) {
      expect(resources[functionIdOf(api, def)]!.Properties.Environment.Variables.ORIGIN_SECRET_ARN, def.id).toBeUndefined();
    }
  });

  it('has CloudFront send the secret as an origin header to the API, as a dynamic reference to the rotated version', () => {
    const rotation = Object.entries(web.findResources('Custom::OriginSecretRotation')) as [string, Resource][];
    expect(rotation).toHaveLength(1);
    const [rotationId, { Properties: props }] = rotation[0]!;
    expect(props.VersionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(props.WaitSeconds).toBeGreaterThan(ORIGIN_SECRET_CACHE_SECONDS);
    expect(JSON.stringify(props.SecretId)).toMatch(/OpzioneCasaApi:ExportsOutputRefOriginSecret/);

    const header = apiOrigin(web).OriginCustomHeaders as { HeaderName: string; HeaderValue: unknown }[];
    expect(header).toHaveLength(1);
    expect(header[0]!.HeaderName).toBe(ORIGIN_HEADER);
    const value = JSON.stringify(header[0]!.HeaderValue);
    expect(value).toContain('{{resolve:secretsmanager:');
    expect(value).toMatch(/OpzioneCasaApi:ExportsOutputRefOriginSecret/);
    expect(value).toContain(`:SecretString:::${props.VersionId as string}}}`);
    // the distribution takes the new version only once the rotation has made it current
    const [distributionId] = Object.keys(web.findResources('AWS::CloudFront::Distribution'));
    expect((web.toJSON().Resources[distributionId!] as Resource).DependsOn).toContain(rotationId);
  });

  it('rotates at every synth (so at every deploy): a new version id each time', () => {
    const again = buildApp();
    try {
      const first = Object.values(web.findResources('Custom::OriginSecretRotation'))[0]!.Properties.VersionId;
      const second = Object.values(Template.fromStack(again.web).findResources('Custom::OriginSecretRotation'))[0]!.Properties.VersionId;
      expect(second).not.toBe(first);
    } finally {
      again.dispose();
    }
  });

  it('lets the rotation function write versions of that secret only', () => {
    const [fnId] = Object.keys(web.findResources('AWS::Lambda::Function', { Properties: { Description: Match.stringLikeRegexp('origin secret') } }));
    const statements = statementsOfRole(web, roleIdOf(web, fnId!)).filter((s) => [s.Action].flat().some((a) => a.startsWith('secretsmanager:')));
    expect(statements.map((r) => ({ Effect: r.Effect, Action: [r.Action].flat().sort(), Resource: r.Resource }))).toEqual([
      {
        Effect: 'Allow',
        Action: ['secretsmanager:DescribeSecret', 'secretsmanager:PutSecretValue', 'secretsmanager:UpdateSecretVersionStage'],
        Resource: { 'Fn::ImportValue': expect.stringMatching(/^OpzioneCasaApi:ExportsOutputRefOriginSecret/) },
      },
    ]);
  });
});

describe('AWS WAF on the distribution', () => {
  let stacks: ReturnType<typeof buildApp>;
  let edge: Template;
  beforeAll(() => {
    stacks = buildApp();
    edge = Template.fromStack(stacks.edge);
  });
  afterAll(() => stacks.dispose());

  it('lives in us-east-1 (CloudFront web ACLs must)', () => {
    expect(stacks.edge.region).toBe('us-east-1');
  });

  it('has a CLOUDFRONT web ACL with a per-IP rate-based rule and the AWS common rule set', () => {
    edge.resourceCountIs('AWS::WAFv2::WebACL', 1);
    const acl = Object.values(edge.findResources('AWS::WAFv2::WebACL'))[0]!.Properties;
    expect(acl.Scope).toBe('CLOUDFRONT');
    expect(acl.DefaultAction).toEqual({ Allow: {} });
    expect(acl.VisibilityConfig).toMatchObject({ CloudWatchMetricsEnabled: true, SampledRequestsEnabled: true });
    const rate = acl.Rules.find((r: { Statement: Record<string, unknown> }) => r.Statement.RateBasedStatement);
    expect(rate).toMatchObject({
      Action: { Block: { CustomResponse: { ResponseCode: 429 } } },
      Statement: { RateBasedStatement: { Limit: WAF_RATE_LIMIT, AggregateKeyType: 'IP', EvaluationWindowSec: 300 } },
    });
    const common = acl.Rules.find((r: { Statement: Json }) => r.Statement.ManagedRuleGroupStatement?.Name === 'AWSManagedRulesCommonRuleSet');
    expect(common).toMatchObject({ OverrideAction: { None: {} }, Statement: { ManagedRuleGroupStatement: { VendorName: 'AWS' } } });
    // bodies above 8 KB (a submission with many rooms) are the API's to judge, not the rule set's
    expect(common.Statement.ManagedRuleGroupStatement.RuleActionOverrides).toEqual([{ Name: 'SizeRestrictions_BODY', ActionToUse: { Count: {} } }]);
  });

  it('is the distribution\'s web ACL, read across regions', () => {
    const config = distributionConfig(Template.fromStack(stacks.web));
    expect(JSON.stringify(config.WebACLId)).toMatch(/ExportsReader|WebAcl/);
    expect(stacks.web.dependencies).toContain(stacks.edge);
  });
});

describe('security headers on every response', () => {
  let stacks: ReturnType<typeof buildApp>;
  let web: Template;
  beforeAll(() => {
    stacks = buildApp({ context: { voiceWidget: { projectId: 'vw-1', scriptUrl: 'https://voice.example.test/widget.js' } } });
    web = Template.fromStack(stacks.web);
  });
  afterAll(() => stacks.dispose());

  it('uses one response headers policy, ours, on the SPA and on /api/*', () => {
    const [policyId] = Object.keys(web.findResources('AWS::CloudFront::ResponseHeadersPolicy'));
    expect(policyId).toBeDefined();
    const config = distributionConfig(web);
    for (const behavior of [config.DefaultCacheBehavior, ...config.CacheBehaviors]) {
      expect(behavior.ResponseHeadersPolicyId).toEqual({ Ref: policyId });
    }
  });

  it('is exactly what infra/stacks/security-headers.ts builds for this deploy (the local server sends the same)', () => {
    const expected = securityHeaders(
      edgeOriginsOf(stacks.web.runtimeConfig, [stacks.data.mediaBucket, stacks.data.omiBucket].map((b) => `https://${b.bucketRegionalDomainName}`)),
    );
    const policy = Object.values(web.findResources('AWS::CloudFront::ResponseHeadersPolicy'))[0]!.Properties.ResponseHeadersPolicyConfig;
    expect(policy.SecurityHeadersConfig).toEqual({
      ContentSecurityPolicy: { ContentSecurityPolicy: stacks.web.resolve(expected.contentSecurityPolicy), Override: true },
      StrictTransportSecurity: { AccessControlMaxAgeSec: 63_072_000, IncludeSubdomains: true, Preload: false, Override: true },
      ReferrerPolicy: { ReferrerPolicy: 'strict-origin-when-cross-origin', Override: true },
      FrameOptions: { FrameOption: 'DENY', Override: true },
      ContentTypeOptions: { Override: true },
    });
    expect(policy.CustomHeadersConfig.Items).toEqual([{ Header: 'Permissions-Policy', Value: expected.permissionsPolicy, Override: true }]);
    const csp = JSON.stringify(policy.SecurityHeadersConfig.ContentSecurityPolicy.ContentSecurityPolicy);
    expect(csp).toContain("script-src 'self' https://voice.example.test;");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain('https://cognito-idp.eu-south-1.amazonaws.com');
    expect(csp).toMatch(/MediaBucket.*RegionalDomainName/);
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval/);
  });

  it('leaves the voice widget out of the policy when the deploy configures none', () => {
    const plain = buildApp();
    try {
      const policy = Object.values(Template.fromStack(plain.web).findResources('AWS::CloudFront::ResponseHeadersPolicy'))[0]!.Properties.ResponseHeadersPolicyConfig;
      const csp = JSON.stringify(policy.SecurityHeadersConfig.ContentSecurityPolicy.ContentSecurityPolicy);
      expect(csp).toContain("script-src 'self';");
      expect(csp).toContain("frame-src 'none'");
      expect(policy.CustomHeadersConfig.Items[0].Value).toContain('microphone=()');
    } finally {
      plain.dispose();
    }
  });
});

describe('bucket CORS: the site\'s own origins only', () => {
  const corsOf = (template: Template) =>
    (Object.values(template.findResources('Custom::BucketCors')) as Resource[]).map((r) => r.Properties);

  it('gives the buckets no CORS in the data stack, and none for *.cloudfront.net anywhere', () => {
    const stacks = buildApp();
    try {
      const data = Template.fromStack(stacks.data);
      for (const bucket of [stacks.data.mediaBucket, stacks.data.omiBucket]) {
        const id = stacks.data.getLogicalId(bucket.node.defaultChild as never);
        expect(data.toJSON().Resources[id].Properties.CorsConfiguration, bucket.node.id).toBeUndefined();
      }
      for (const stack of [stacks.data, stacks.web]) expect(JSON.stringify(Template.fromStack(stack).toJSON())).not.toContain('*.cloudfront.net');
    } finally {
      stacks.dispose();
    }
  });

  it('sets each bucket\'s CORS after the distribution exists, to the distribution\'s domain', () => {
    const stacks = buildApp();
    try {
      const web = Template.fromStack(stacks.web);
      const rules = corsOf(web);
      expect(rules).toHaveLength(2);
      const [distributionId] = Object.keys(web.findResources('AWS::CloudFront::Distribution'));
      const buckets = rules.map((r) => JSON.stringify(r.Bucket)).sort();
      expect(buckets[0]).toMatch(/MediaBucket/);
      expect(buckets[1]).toMatch(/OmiDropBucket/);
      for (const r of rules) {
        expect(r.CorsRules).toEqual([
          {
            AllowedOrigins: [{ 'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [distributionId, 'DomainName'] }]] }],
            AllowedMethods: ['GET', 'HEAD', 'PUT', 'POST'],
            AllowedHeaders: ['*'],
            ExposeHeaders: ['ETag'],
            MaxAgeSeconds: 3000,
          },
        ]);
      }
    } finally {
      stacks.dispose();
    }
  });

  it('adds the custom domain, and an explicitly configured app URL, when there are', () => {
    const stacks = buildApp({
      context: { domainName: 'www.example.test', certificateArn: 'arn:aws:acm:us-east-1:123456789012:certificate/abc', appUrl: 'https://app.example.test' },
    });
    try {
      const rules = corsOf(Template.fromStack(stacks.web));
      expect(rules).toHaveLength(2);
      for (const r of rules) {
        expect(r.CorsRules[0].AllowedOrigins).toEqual([
          { 'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [expect.any(String), 'DomainName'] }]] },
          'https://www.example.test',
          'https://app.example.test',
        ]);
      }
    } finally {
      stacks.dispose();
    }
  });

  it('lets the CORS function change the CORS of these two buckets only', () => {
    const stacks = buildApp();
    try {
      const web = Template.fromStack(stacks.web);
      const [fnId] = Object.keys(web.findResources('AWS::Lambda::Function', { Properties: { Description: Match.stringLikeRegexp('CORS') } }));
      const statements = statementsOfRole(web, roleIdOf(web, fnId!));
      expect(statements).toHaveLength(1);
      expect(statements[0]).toMatchObject({ Effect: 'Allow', Action: 's3:PutBucketCORS' });
      const resources = JSON.stringify(statements[0]!.Resource);
      expect(resources).toMatch(/MediaBucket/);
      expect(resources).toMatch(/OmiDropBucket/);
      expect(resources).not.toContain('*');
    } finally {
      stacks.dispose();
    }
  });
});
