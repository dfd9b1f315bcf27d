import { CustomResource, Duration, RemovalPolicy } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { acknowledge, acknowledgeFindings, LAMBDA_BASIC_EXECUTION } from './nag';

/**
 * Create/Update: PutBucketCors with the rules given; Delete: DeleteBucketCors. The physical
 * id is the bucket's name, so a change of rules updates in place and a new bucket replaces.
 * CloudFormation passes numbers to custom resources as strings: MaxAgeSeconds is converted.
 */
const CORS_CODE = `
const { S3Client, PutBucketCorsCommand, DeleteBucketCorsCommand } = require('@aws-sdk/client-s3');
const s3 = new S3Client({});
exports.handler = async (event) => {
  const p = event.ResourceProperties;
  let status = 'SUCCESS';
  let reason = 'ok';
  try {
    if (event.RequestType === 'Delete') {
      if (event.PhysicalResourceId === p.Bucket) await s3.send(new DeleteBucketCorsCommand({ Bucket: p.Bucket }));
    } else {
      const rules = p.CorsRules.map((r) => ({ ...r, MaxAgeSeconds: Number(r.MaxAgeSeconds) }));
      await s3.send(new PutBucketCorsCommand({ Bucket: p.Bucket, CORSConfiguration: { CORSRules: rules } }));
    }
  } catch (err) {
    console.error(err);
    status = 'FAILED';
    reason = String((err && err.message) || err);
  }
  const body = JSON.stringify({
    Status: status, Reason: reason, PhysicalResourceId: p.Bucket,
    StackId: event.StackId, RequestId: event.RequestId, LogicalResourceId: event.LogicalResourceId, Data: {},
  });
  await fetch(event.ResponseURL, { method: 'PUT', headers: { 'content-type': '' }, body });
};
`;

export interface BucketCorsProps {
  buckets: Record<string, s3.IBucket>;
  /** the origins allowed to read the answers of presigned requests (the site's own) */
  allowedOrigins: string[];
}

/**
 * The CORS of buckets that belong to another stack, set from this one. The media and OMI
 * buckets must allow the site's origin, whose CloudFront domain exists only once the web
 * stack has created the distribution, and the web stack depends on the data stack: setting
 * the CORS here, after the distribution, avoids the cycle (the data stack declares none).
 */
export class BucketCors extends Construct {
  constructor(scope: Construct, id: string, props: BucketCorsProps) {
    super(scope, id);
    const buckets = Object.values(props.buckets);
    const fn = new lambda.Function(this, 'Function', {
      description: 'Sets the CORS of the media and OMI buckets to the site\'s origins',
      runtime: lambda.Runtime.NODEJS_22_X,
      architecture: lambda.Architecture.ARM_64,
      handler: 'index.handler',
      code: lambda.Code.fromInline(CORS_CODE),
      timeout: Duration.seconds(30),
      logGroup: new logs.LogGroup(this, 'Logs', { retention: logs.RetentionDays.ONE_MONTH, removalPolicy: RemovalPolicy.DESTROY }),
    });
    // DeleteBucketCors is authorized by s3:PutBucketCORS too
    fn.addToRolePolicy(new iam.PolicyStatement({ actions: ['s3:PutBucketCORS'], resources: buckets.map((b) => b.bucketArn) }));
    acknowledge(fn, {
      id: 'AwsSolutions-L1',
      reason: 'Runtime pinned to nodejs22.x like the API functions (docs/architecture.md); upgraded together',
    });
    acknowledgeFindings(this, LAMBDA_BASIC_EXECUTION);

    for (const [name, bucket] of Object.entries(props.buckets)) {
      new CustomResource(this, name, {
        serviceToken: fn.functionArn,
        resourceType: 'Custom::BucketCors',
        properties: {
          Bucket: bucket.bucketName,
          CorsRules: [
            {
              // presigned POST/PUT uploads and GET downloads: the signature is the access
              // control, CORS only lets the site read the answers
              AllowedOrigins: props.allowedOrigins,
              AllowedMethods: ['GET', 'HEAD', 'PUT', 'POST'],
              AllowedHeaders: ['*'],
              ExposeHeaders: ['ETag'],
              MaxAgeSeconds: 3000,
            },
          ],
        },
      });
    }
  }
}
