import { Match, Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DRAFT_EXPIRY_DAYS, DRAFT_TAG } from '../../functions/lib/draft-uploads';
import { routes, triggers, type RouteDef, type TriggerDef } from '../../functions/routes';
import { ASYNC_RETRY_ATTEMPTS } from '../../infra/constructs/alarms';
import { buildApp, FAKE_MANIFEST, FAKE_ROUTES, FAKE_TRIGGERS, functionIdOf, roleIdOf, statementsOfRole } from './helpers';

/** a resource of the template as findResources gives it (untyped CloudFormation JSON) */
type Resource = ReturnType<Template['findResources']>[string];

const ASYNC = (t: TriggerDef) => t.source === 's3:omiDrop' || t.source === 'schedule';
const COGNITO = (t: TriggerDef) => t.source.startsWith('cognito:');

describe('media drafts expire after a day (data stack)', () => {
  let template: Template;
  let stacks: ReturnType<typeof buildApp>;
  beforeAll(() => {
    stacks = buildApp();
    template = Template.fromStack(stacks.data);
  });
  afterAll(() => stacks.dispose());

  it('expires the objects tagged as drafts, and only those, after 1 day', () => {
    expect(DRAFT_EXPIRY_DAYS).toBe(1);
    const id = stacks.data.getLogicalId(stacks.data.mediaBucket.node.defaultChild as never);
    const rules = (template.toJSON().Resources[id] as Resource).Properties.LifecycleConfiguration.Rules as Record<string, unknown>[];
    expect(rules).toContainEqual(
      expect.objectContaining({ Status: 'Enabled', ExpirationInDays: 1, TagFilters: [{ Key: DRAFT_TAG.key, Value: DRAFT_TAG.value }] }),
    );
    // nothing else in the media bucket expires: a submitted request's files are kept
    for (const rule of rules.filter((r) => r.ExpirationInDays !== undefined || r.ExpirationDate !== undefined)) {
      expect(rule.TagFilters).toEqual([{ Key: DRAFT_TAG.key, Value: DRAFT_TAG.value }]);
      expect(rule.Prefix).toBeUndefined();
    }
  });
});

function checkFailures(getTemplate: () => Template, manifestRoutes: readonly RouteDef[], manifestTriggers: readonly TriggerDef[]) {
  const resources = () => getTemplate().toJSON().Resources as Record<string, Resource>;
  const topicId = () => {
    const topics = Object.keys(getTemplate().findResources('AWS::SNS::Topic'));
    expect(topics).toHaveLength(1);
    return topics[0]!;
  };
  const queueOf = (template: Template, fnId: string): string => {
    const configs = Object.values(template.findResources('AWS::Lambda::EventInvokeConfig', { Properties: { FunctionName: { Ref: fnId } } }));
    expect(configs, fnId).toHaveLength(1);
    const destination = (configs[0] as Resource).Properties.DestinationConfig.OnFailure.Destination as { 'Fn::GetAtt': [string, string] };
    expect(destination['Fn::GetAtt'][1]).toBe('Arn');
    return destination['Fn::GetAtt'][0];
  };
  const alarmsOn = (namespace: string, metric: string, dimension: { Name: string; Value: unknown }) =>
    Object.values(resources()).filter(
      (r) =>
        r.Type === 'AWS::CloudWatch::Alarm' &&
        r.Properties.Namespace === namespace &&
        r.Properties.MetricName === metric &&
        JSON.stringify(r.Properties.Dimensions) === JSON.stringify([dimension]),
    );

  it('sends every async-invoked function\'s failed events, after the retries, to its own encrypted TLS-only queue', () => {
    const template = getTemplate();
    const asyncTriggers = manifestTriggers.filter(ASYNC);
    expect(asyncTriggers.length).toBeGreaterThan(0);
    const queues = new Set<string>();
    for (const def of asyncTriggers) {
      const fnId = functionIdOf(template, def);
      template.hasResourceProperties('AWS::Lambda::EventInvokeConfig', {
        FunctionName: { Ref: fnId },
        Qualifier: '$LATEST',
        MaximumRetryAttempts: ASYNC_RETRY_ATTEMPTS,
      });
      const queueId = queueOf(template, fnId);
      queues.add(queueId);
      const queue = resources()[queueId]!;
      expect(queue.Type).toBe('AWS::SQS::Queue');
      expect(queue.Properties.SqsManagedSseEnabled).toBe(true);
      expect(queue.Properties.MessageRetentionPeriod).toBe(14 * 86_400);
      const policies = Object.values(template.findResources('AWS::SQS::QueuePolicy')).filter((p) =>
        JSON.stringify((p as Resource).Properties.Queues).includes(queueId),
      );
      expect(policies, def.id).toHaveLength(1);
      expect((policies[0] as Resource).Properties.PolicyDocument.Statement).toContainEqual(
        expect.objectContaining({ Effect: 'Deny', Action: 'sqs:*', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
      );
      // the function may write its failures to the queue
      const statements = statementsOfRole(template, roleIdOf(template, fnId));
      expect(
        statements.some((s) => [s.Action].flat().includes('sqs:SendMessage') && JSON.stringify(s.Resource).includes(queueId)),
        def.id,
      ).toBe(true);
    }
    expect(queues.size).toBe(asyncTriggers.length);
    // routes are invoked synchronously: no on-failure destination for them
    for (const def of manifestRoutes) {
      expect(Object.keys(template.findResources('AWS::Lambda::EventInvokeConfig', { Properties: { FunctionName: { Ref: functionIdOf(template, def) } } }))).toEqual([]);
    }
  });

  it('sends a schedule event EventBridge cannot deliver to the same queue', () => {
    const template = getTemplate();
    for (const def of manifestTriggers.filter((t) => t.source === 'schedule')) {
      const fnId = functionIdOf(template, def);
      template.hasResourceProperties('AWS::Events::Rule', {
        ScheduleExpression: def.schedule,
        Targets: [Match.objectLike({ Arn: { 'Fn::GetAtt': [fnId, 'Arn'] }, DeadLetterConfig: { Arn: { 'Fn::GetAtt': [queueOf(template, fnId), 'Arn'] } } })],
      });
    }
  });

  it('alarms on the errors of every trigger, on every failed-events queue that holds a message and on API 5xx answers', () => {
    const template = getTemplate();
    const topic = topicId();
    const expectAlarm = (found: Resource[], what: string) => {
      expect(found, what).toHaveLength(1);
      expect(found[0]!.Properties, what).toMatchObject({
        Threshold: 1,
        ComparisonOperator: 'GreaterThanOrEqualToThreshold',
        EvaluationPeriods: 1,
        TreatMissingData: 'notBreaching',
        AlarmActions: [{ Ref: topic }],
      });
    };
    for (const def of manifestTriggers.filter(ASYNC)) {
      const fnId = functionIdOf(template, def);
      expectAlarm(alarmsOn('AWS/Lambda', 'Errors', { Name: 'FunctionName', Value: { Ref: fnId } }), `${def.id} errors`);
      const queueId = queueOf(template, fnId);
      expectAlarm(
        alarmsOn('AWS/SQS', 'ApproximateNumberOfMessagesVisible', { Name: 'QueueName', Value: { 'Fn::GetAtt': [queueId, 'QueueName'] } }),
        `${def.id} failed events`,
      );
    }
    // Cognito triggers live in the auth stack: their alarms name them by the exported function name
    const cognitoAlarms = Object.values(resources()).filter(
      (r) =>
        r.Type === 'AWS::CloudWatch::Alarm' &&
        r.Properties.MetricName === 'Errors' &&
        JSON.stringify(r.Properties.Dimensions).includes('Fn::ImportValue') &&
        JSON.stringify(r.Properties.Dimensions).includes('OpzioneCasaAuth'),
    );
    expect(cognitoAlarms).toHaveLength(manifestTriggers.filter(COGNITO).length);
    for (const alarm of cognitoAlarms) expect(alarm.Properties.AlarmActions).toEqual([{ Ref: topic }]);
    const apiId = Object.keys(template.findResources('AWS::ApiGatewayV2::Api'))[0]!;
    expectAlarm(alarmsOn('AWS/ApiGateway', '5xx', { Name: 'ApiId', Value: { Ref: apiId } }), 'API 5xx');
  });

  it('publishes alarms to a topic encrypted with a rotated key CloudWatch may use, over TLS only', () => {
    const template = getTemplate();
    const topic = resources()[topicId()]!;
    const keyId = (topic.Properties.KmsMasterKeyId as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
    const key = resources()[keyId]!;
    expect(key.Type).toBe('AWS::KMS::Key');
    expect(key.Properties.EnableKeyRotation).toBe(true);
    expect(key.Properties.KeyPolicy.Statement).toContainEqual(
      expect.objectContaining({
        Effect: 'Allow',
        Principal: { Service: 'cloudwatch.amazonaws.com' },
        Action: expect.arrayContaining(['kms:Decrypt', 'kms:GenerateDataKey*']),
      }),
    );
    const policies = Object.values(template.findResources('AWS::SNS::TopicPolicy')) as Resource[];
    expect(policies).toHaveLength(1);
    expect(policies[0]!.Properties.PolicyDocument.Statement).toContainEqual(
      expect.objectContaining({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
    );
  });
}

describe('failures of the real manifest (api stack)', () => {
  let template: Template;
  let stacks: ReturnType<typeof buildApp>;
  beforeAll(() => {
    stacks = buildApp();
    template = Template.fromStack(stacks.api);
  });
  afterAll(() => stacks.dispose());

  checkFailures(() => template, routes, triggers);

  it('subscribes no one to the alarms unless the deploy names an address', () => {
    template.resourceCountIs('AWS::SNS::Subscription', 0);
  });
});

describe('failures of a manifest with every kind of entry (api stack)', () => {
  let template: Template;
  let stacks: ReturnType<typeof buildApp>;
  beforeAll(() => {
    stacks = buildApp({ manifest: FAKE_MANIFEST, context: { alarmEmail: 'guasti@example.test' } });
    template = Template.fromStack(stacks.api);
  });
  afterAll(() => stacks.dispose());

  checkFailures(() => template, FAKE_ROUTES, FAKE_TRIGGERS);

  it('e-mails the alarms to the address of the deploy configuration', () => {
    template.resourceCountIs('AWS::SNS::Subscription', 1);
    template.hasResourceProperties('AWS::SNS::Subscription', {
      Protocol: 'email',
      Endpoint: 'guasti@example.test',
      TopicArn: { Ref: Object.keys(template.findResources('AWS::SNS::Topic'))[0] },
    });
  });

  it('refuses an alarm address that is not an e-mail address', () => {
    expect(() => buildApp({ context: { alarmEmail: 'non-un-indirizzo' } })).toThrow(/alarmEmail/);
  });
});

describe('IP hashes are salted per deployment (api stack)', () => {
  let template: Template;
  let stacks: ReturnType<typeof buildApp>;
  beforeAll(() => {
    stacks = buildApp();
    template = Template.fromStack(stacks.api);
  });
  afterAll(() => stacks.dispose());

  // the stack may hold other secrets: the salt is the one made by the construct IpHashSalt
  const saltId = () => {
    const ids = Object.keys(template.findResources('AWS::SecretsManager::Secret')).filter((id) => id.startsWith('IpHashSalt'));
    expect(ids).toHaveLength(1);
    return ids[0]!;
  };

  it('generates the salt at deploy time in Secrets Manager: its value is never in the template', () => {
    const secret = template.toJSON().Resources[saltId()] as Resource;
    expect(secret!.Properties.GenerateSecretString).toMatchObject({ ExcludePunctuation: true });
    expect(secret!.Properties.GenerateSecretString.PasswordLength).toBeGreaterThanOrEqual(32);
    expect(secret!.Properties.SecretString).toBeUndefined();
  });

  it('gives every HTTP route its ARN (read at run time through the secrets extension), never its value', () => {
    const secretId = saltId();
    for (const def of routes) {
      const fn = (template.toJSON().Resources[functionIdOf(template, def)] as Resource).Properties;
      expect(fn.Environment.Variables.IP_HASH_SALT_ARN, def.id).toEqual({ Ref: secretId });
      expect(fn.Environment.Variables.IP_HASH_SALT, def.id).toBeUndefined();
    }
    // the triggers never hash an IP
    for (const def of triggers.filter(ASYNC)) {
      const fn = (template.toJSON().Resources[functionIdOf(template, def)] as Resource).Properties;
      expect(Object.keys(fn.Environment.Variables).filter((k) => k.startsWith('IP_HASH_SALT')), def.id).toEqual([]);
    }
  });
});

describe('a submission may copy its drafts, and nothing more (api stack)', () => {
  let template: Template;
  let stacks: ReturnType<typeof buildApp>;
  beforeAll(() => {
    stacks = buildApp();
    template = Template.fromStack(stacks.api);
  });
  afterAll(() => stacks.dispose());

  it('grants the submission routes s3:PutObject on media objects (the copies it links), without s3:PutObjectTagging (a copy carries no tag)', () => {
    for (const id of ['submitProperty', 'submitOwnProperty']) {
      const def = (routes as readonly RouteDef[]).find((r) => r.id === id)!;
      expect(def.iam.media, id).toContain('PutObject');
      const statements = statementsOfRole(template, roleIdOf(template, functionIdOf(template, def)));
      const put = statements.filter((s) => [s.Action].flat().includes('s3:PutObject'));
      expect(put, id).toHaveLength(1);
      expect(JSON.stringify(put[0]!.Resource)).toContain('MediaBucket');
      expect(JSON.stringify(put[0]!.Resource)).toContain('/*');
      expect(statements.flatMap((s) => [s.Action].flat()), id).not.toContain('s3:PutObjectTagging');
    }
  });
});
