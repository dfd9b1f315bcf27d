import { CfnOutput, Duration, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as s3 from 'aws-cdk-lib/aws-s3';
import type { Construct } from 'constructs';
import { DRAFT_EXPIRY_DAYS, DRAFT_TAG } from '../../functions/lib/draft-uploads';
import { TABLE_GSIS, TABLE_KEYS, TTL_ATTRIBUTE } from '../../functions/model/table';
import { acknowledge } from '../constructs/nag';
import { PrivateBucket } from '../constructs/private-bucket';

/**
 * The media and OMI buckets have no CORS here: the browser's origin is the distribution's
 * domain, known only once the web stack (which depends on this one) exists, so the web stack
 * sets their CORS (infra/constructs/bucket-cors.ts). No CorsConfiguration here, or an update
 * of this stack would put back its own.
 */
export type DataStackProps = StackProps;

/**
 * Everything stateful that is not a login: the single table, the media bucket, the OMI drop
 * bucket and the bucket their access logs (and CloudFront's) go to. All retained on delete.
 */
export class DataStack extends Stack {
  readonly table: dynamodb.Table;
  readonly mediaBucket: s3.Bucket;
  readonly omiBucket: s3.Bucket;
  readonly logBucket: s3.Bucket;

  constructor(scope: Construct, id: string, props: DataStackProps) {
    super(scope, id, props);

    this.table = new dynamodb.Table(this, 'Table', {
      partitionKey: { name: TABLE_KEYS.partitionKey, type: dynamodb.AttributeType.STRING },
      sortKey: { name: TABLE_KEYS.sortKey, type: dynamodb.AttributeType.STRING },
      billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
      timeToLiveAttribute: TTL_ATTRIBUTE,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      deletionProtection: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    for (const gsi of TABLE_GSIS) {
      this.table.addGlobalSecondaryIndex({
        indexName: gsi.indexName,
        partitionKey: { name: gsi.partitionKey, type: dynamodb.AttributeType.STRING },
        sortKey: { name: gsi.sortKey, type: dynamodb.AttributeType.STRING },
        projectionType: dynamodb.ProjectionType.ALL,
      });
    }

    this.logBucket = new s3.Bucket(this, 'LogBucket', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      encryption: s3.BucketEncryption.S3_MANAGED,
      // CloudFront standard logs are delivered through a bucket ACL, so ACLs stay enabled here
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_PREFERRED,
      lifecycleRules: [{ expiration: Duration.days(365) }],
      removalPolicy: RemovalPolicy.RETAIN,
    });
    acknowledge(this.logBucket, {
      id: 'AwsSolutions-S1',
      reason: 'This is the access-log bucket; logging it into itself would log its own log writes',
    });

    this.mediaBucket = new PrivateBucket(this, 'MediaBucket', {
      accessLogs: this.logBucket,
      // No versioning: erasing an account must really erase identity images and documents.
      lifecycleRules: [
        { abortIncompleteMultipartUploadAfter: Duration.days(1) },
        // Wizard uploads are made as drafts (functions/lib/draft-uploads.ts): those of a request
        // never submitted go after a day; a submission removes the tag first and they stay.
        { id: 'ExpireDrafts', tagFilters: { [DRAFT_TAG.key]: DRAFT_TAG.value }, expiration: Duration.days(DRAFT_EXPIRY_DAYS) },
      ],
    });

    this.omiBucket = new PrivateBucket(this, 'OmiDropBucket', {
      accessLogs: this.logBucket,
      // admins upload OMI files from the browser with a presigned POST (CORS: web stack);
      // the import copies the quotations into the table; the files are only a drop box
      lifecycleRules: [{ expiration: Duration.days(30), abortIncompleteMultipartUploadAfter: Duration.days(1) }],
    });

    new CfnOutput(this, 'TableName', { value: this.table.tableName });
    new CfnOutput(this, 'MediaBucketName', { value: this.mediaBucket.bucketName });
    new CfnOutput(this, 'OmiBucketName', {
      value: this.omiBucket.bucketName,
      description: 'OMI drop bucket: files arrive through the OMI page (presigned POST) and start the import',
    });
  }
}
