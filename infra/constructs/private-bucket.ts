import { RemovalPolicy } from 'aws-cdk-lib';
import * as s3 from 'aws-cdk-lib/aws-s3';
import type { Construct } from 'constructs';

export interface PrivateBucketProps extends Omit<s3.BucketProps, 'blockPublicAccess' | 'enforceSSL' | 'encryption' | 'publicReadAccess'> {
  /** where S3 server access logs go; the prefix is the construct id */
  accessLogs: s3.IBucket;
}

/**
 * The one way this app makes a bucket: never public, TLS only, encrypted at rest, access
 * logged. Kept unless the caller says otherwise: these buckets hold people's documents.
 */
export class PrivateBucket extends s3.Bucket {
  constructor(scope: Construct, id: string, props: PrivateBucketProps) {
    const { accessLogs, ...rest } = props;
    super(scope, id, {
      removalPolicy: RemovalPolicy.RETAIN,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      ...rest,
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      encryption: s3.BucketEncryption.S3_MANAGED,
      serverAccessLogsBucket: accessLogs,
      serverAccessLogsPrefix: `${id}/`,
    });
  }
}
