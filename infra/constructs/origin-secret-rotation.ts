import { randomUUID } from 'node:crypto';
import { CustomResource, Duration, RemovalPolicy, SecretValue } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { acknowledge, acknowledgeFindings, LAMBDA_BASIC_EXECUTION } from './nag';

/**
 * How long the API's functions may keep a version of the origin secret (the Parameters and
 * Secrets extension's cache, functions/lib/origin.ts). A rotation waits a little longer
 * before CloudFront gets the new value, so no function still holds only the old ones.
 */
export const ORIGIN_SECRET_CACHE_SECONDS = 60;

/**
 * The custom resource's function (inline: it needs only the SDK the runtime ships). Create
 * and Update: the version `VersionId` of the secret becomes AWSCURRENT; it is written (a new
 * random value, 48 bytes) unless it exists already, which is the case when CloudFormation
 * rolls back to the previous template, and then that version is made current again. The
 * version that was current becomes AWSPREVIOUS, which the API still accepts. Then it waits
 * out the functions' cache. Delete: nothing (the secret belongs to the api stack).
 */
const ROTATION_CODE = `
const { SecretsManagerClient, DescribeSecretCommand, PutSecretValueCommand, UpdateSecretVersionStageCommand } = require('@aws-sdk/client-secrets-manager');
const { randomBytes } = require('node:crypto');
const sm = new SecretsManagerClient({});
async function rotate(p) {
  const stages = (await sm.send(new DescribeSecretCommand({ SecretId: p.SecretId }))).VersionIdsToStages || {};
  if (!stages[p.VersionId]) {
    await sm.send(new PutSecretValueCommand({ SecretId: p.SecretId, ClientRequestToken: p.VersionId, SecretString: randomBytes(48).toString('base64url') }));
  } else if (!stages[p.VersionId].includes('AWSCURRENT')) {
    const current = Object.keys(stages).find((v) => stages[v].includes('AWSCURRENT'));
    await sm.send(new UpdateSecretVersionStageCommand({ SecretId: p.SecretId, VersionStage: 'AWSCURRENT', MoveToVersionId: p.VersionId, RemoveFromVersionId: current }));
  } else {
    return;
  }
  await new Promise((resolve) => setTimeout(resolve, Number(p.WaitSeconds) * 1000));
}
exports.handler = async (event) => {
  let status = 'SUCCESS';
  let reason = 'ok';
  try {
    if (event.RequestType !== 'Delete') await rotate(event.ResourceProperties);
  } catch (err) {
    console.error(err);
    status = 'FAILED';
    reason = String((err && err.message) || err);
  }
  const body = JSON.stringify({
    Status: status, Reason: reason, PhysicalResourceId: 'origin-secret-rotation',
    StackId: event.StackId, RequestId: event.RequestId, LogicalResourceId: event.LogicalResourceId, Data: {},
  });
  await fetch(event.ResponseURL, { method: 'PUT', headers: { 'content-type': '' }, body });
};
`;

export interface OriginSecretRotationProps {
  secret: secretsmanager.ISecret;
  /** the version this deploy makes current; a new one at every synth unless given (tests) */
  versionId?: string;
}

/**
 * Rotates the origin secret at every deploy and gives the value to put in CloudFront's
 * origin header: a CloudFormation dynamic reference to exactly the version this deploy made
 * current, resolved by CloudFormation when it updates the distribution (the value is in no
 * template). The distribution must depend on this construct.
 */
export class OriginSecretRotation extends Construct {
  readonly versionId: string;
  /** `{{resolve:secretsmanager:<arn>:SecretString:::<versionId>}}` */
  readonly headerValue: string;
  readonly resource: CustomResource;

  constructor(scope: Construct, id: string, props: OriginSecretRotationProps) {
    super(scope, id);
    this.versionId = props.versionId ?? randomUUID();

    const fn = new lambda.Function(this, 'Function', {
      description: 'Rotates the origin secret CloudFront sends to the API, at each deploy',
      runtime: lambda.Runtime.NODEJS_22_X,
      architecture: lambda.Architecture.ARM_64,
      handler: 'index.handler',
      code: lambda.Code.fromInline(ROTATION_CODE),
      timeout: Duration.seconds(ORIGIN_SECRET_CACHE_SECONDS + 60),
      logGroup: new logs.LogGroup(this, 'Logs', { retention: logs.RetentionDays.ONE_MONTH, removalPolicy: RemovalPolicy.DESTROY }),
    });
    fn.addToRolePolicy(
      new iam.PolicyStatement({
        actions: ['secretsmanager:DescribeSecret', 'secretsmanager:PutSecretValue', 'secretsmanager:UpdateSecretVersionStage'],
        resources: [props.secret.secretArn],
      }),
    );
    acknowledge(fn, {
      id: 'AwsSolutions-L1',
      reason: 'Runtime pinned to nodejs22.x like the API functions (docs/architecture.md); upgraded together',
    });
    acknowledgeFindings(this, LAMBDA_BASIC_EXECUTION);

    this.resource = new CustomResource(this, 'Resource', {
      serviceToken: fn.functionArn,
      resourceType: 'Custom::OriginSecretRotation',
      properties: { SecretId: props.secret.secretArn, VersionId: this.versionId, WaitSeconds: ORIGIN_SECRET_CACHE_SECONDS + 5 },
    });
    this.headerValue = SecretValue.secretsManager(props.secret.secretArn, { versionId: this.versionId }).unsafeUnwrap();
  }
}
