import { Match, Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TABLE_GSIS, TABLE_KEYS, TTL_ATTRIBUTE } from '../../functions/model/table';
import { buildApp } from './helpers';

const APP_URL = 'https://www.example.test';

describe('data stack', () => {
  let template: Template;
  let stacks: ReturnType<typeof buildApp>;

  beforeAll(() => {
    stacks = buildApp({ context: { appUrl: APP_URL } });
    template = Template.fromStack(stacks.data);
  });
  afterAll(() => stacks.dispose());

  it('has the single table with the keys and GSIs of functions/model/table.ts, on demand', () => {
    template.resourceCountIs('AWS::DynamoDB::Table', 1);
    template.hasResourceProperties('AWS::DynamoDB::Table', {
      BillingMode: 'PAY_PER_REQUEST',
      KeySchema: [
        { AttributeName: TABLE_KEYS.partitionKey, KeyType: 'HASH' },
        { AttributeName: TABLE_KEYS.sortKey, KeyType: 'RANGE' },
      ],
      GlobalSecondaryIndexes: TABLE_GSIS.map((gsi) => ({
        IndexName: gsi.indexName,
        KeySchema: [
          { AttributeName: gsi.partitionKey, KeyType: 'HASH' },
          { AttributeName: gsi.sortKey, KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: 'ALL' },
      })),
    });
  });

  it('expires items by TTL, keeps point-in-time recovery and survives stack deletion', () => {
    template.hasResource('AWS::DynamoDB::Table', {
      DeletionPolicy: 'Retain',
      UpdateReplacePolicy: 'Retain',
      Properties: Match.objectLike({
        TimeToLiveSpecification: { AttributeName: TTL_ATTRIBUTE, Enabled: true },
        PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
        DeletionProtectionEnabled: true,
      }),
    });
  });

  it('makes every bucket private, encrypted and TLS-only', () => {
    const buckets = template.findResources('AWS::S3::Bucket');
    expect(Object.keys(buckets)).toHaveLength(3);
    for (const bucket of Object.values(buckets)) {
      expect(bucket.Properties.PublicAccessBlockConfiguration).toEqual({
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      });
      expect(bucket.Properties.BucketEncryption.ServerSideEncryptionConfiguration[0].ServerSideEncryptionByDefault).toEqual({
        SSEAlgorithm: 'AES256',
      });
      expect(bucket.DeletionPolicy).toBe('Retain');
    }
    const policies = Object.values(template.findResources('AWS::S3::BucketPolicy'));
    expect(policies).toHaveLength(3);
    for (const policy of policies) {
      expect(policy.Properties.PolicyDocument.Statement).toContainEqual(
        expect.objectContaining({
          Effect: 'Deny',
          Action: 's3:*',
          Condition: { Bool: { 'aws:SecureTransport': 'false' } },
        }),
      );
    }
  });

  it('logs media and OMI bucket access to the log bucket', () => {
    const logBucket = stacks.data.getLogicalId(stacks.data.logBucket.node.defaultChild as never);
    for (const bucket of [stacks.data.mediaBucket, stacks.data.omiBucket]) {
      const id = stacks.data.getLogicalId(bucket.node.defaultChild as never);
      expect(template.toJSON().Resources[id].Properties.LoggingConfiguration).toEqual({
        DestinationBucketName: { Ref: logBucket },
        LogFilePrefix: `${bucket.node.id}/`,
      });
    }
  });

  it('leaves the CORS of the media and OMI buckets to the web stack (the site\'s origins only, test/infra/edge.test.ts)', () => {
    for (const bucket of [stacks.data.mediaBucket, stacks.data.omiBucket]) {
      const id = stacks.data.getLogicalId(bucket.node.defaultChild as never);
      expect(template.toJSON().Resources[id].Properties.CorsConfiguration, bucket.node.id).toBeUndefined();
    }
  });

  it('expires OMI drop files after 30 days', () => {
    const id = stacks.data.getLogicalId(stacks.data.omiBucket.node.defaultChild as never);
    const rules = template.toJSON().Resources[id].Properties.LifecycleConfiguration.Rules;
    expect(rules).toContainEqual(expect.objectContaining({ ExpirationInDays: 30, Status: 'Enabled' }));
  });
});
