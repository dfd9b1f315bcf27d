import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import * as wafv2 from 'aws-cdk-lib/aws-wafv2';
import type { Construct } from 'constructs';

/**
 * Requests per client IP in any 5 minutes before the web ACL blocks it (429): a person
 * browsing the site, chunks and API calls included, stays far below; a script hammering
 * the site or the API does not.
 */
export const WAF_RATE_LIMIT = 1000;

/** The region of a web ACL for CloudFront (scope CLOUDFRONT), whatever the product's region. */
export const EDGE_REGION = 'us-east-1';

/**
 * The AWS WAF web ACL of the distribution. A CloudFront web ACL must be created in
 * us-east-1, so it lives in this small stack there; the web stack reads its ARN through
 * CDK's cross-region references (an SSM parameter in us-east-1 read by a custom resource),
 * hence `crossRegionReferences` on both stacks and an explicit region on every stack.
 */
export class EdgeStack extends Stack {
  readonly webAcl: wafv2.CfnWebACL;

  constructor(scope: Construct, id: string, props: StackProps) {
    super(scope, id, { ...props, crossRegionReferences: true });
    if (this.region !== EDGE_REGION) throw new Error(`The edge stack must be in ${EDGE_REGION} (CloudFront web ACLs), not ${this.region}`);

    const visibility = (metricName: string): wafv2.CfnWebACL.VisibilityConfigProperty => ({
      cloudWatchMetricsEnabled: true,
      sampledRequestsEnabled: true,
      metricName,
    });

    this.webAcl = new wafv2.CfnWebACL(this, 'WebAcl', {
      description: 'Opzione Casa: per-IP rate limit and the AWS common rule set on the CloudFront distribution',
      scope: 'CLOUDFRONT',
      defaultAction: { allow: {} },
      visibilityConfig: visibility('OpzioneCasaWebAcl'),
      rules: [
        {
          name: 'RateLimitPerIp',
          priority: 0,
          statement: { rateBasedStatement: { limit: WAF_RATE_LIMIT, aggregateKeyType: 'IP', evaluationWindowSec: 300 } },
          action: { block: { customResponse: { responseCode: 429 } } },
          visibilityConfig: visibility('RateLimitPerIp'),
        },
        {
          name: 'AWSManagedRulesCommonRuleSet',
          priority: 1,
          statement: {
            managedRuleGroupStatement: {
              vendorName: 'AWS',
              name: 'AWSManagedRulesCommonRuleSet',
              // The rule set blocks bodies above 8 KB: a submission with many rooms and files
              // is larger. Counted only; API Gateway caps bodies and the API validates them.
              ruleActionOverrides: [{ name: 'SizeRestrictions_BODY', actionToUse: { count: {} } }],
            },
          },
          overrideAction: { none: {} },
          visibilityConfig: visibility('AWSManagedRulesCommonRuleSet'),
        },
      ],
    });

    new CfnOutput(this, 'WebAclArn', { value: this.webAcl.attrArn });
  }
}
