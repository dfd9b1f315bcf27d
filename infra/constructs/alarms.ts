import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as cwActions from 'aws-cdk-lib/aws-cloudwatch-actions';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as destinations from 'aws-cdk-lib/aws-lambda-destinations';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as sns from 'aws-cdk-lib/aws-sns';
import * as subscriptions from 'aws-cdk-lib/aws-sns-subscriptions';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { acknowledge } from './nag';

/** Lambda's own retries of an async event before it goes to the failed-events queue. */
export const ASYNC_RETRY_ATTEMPTS = 2;

/** An async event older than this is not retried any more (it goes to the queue). */
export const ASYNC_MAX_EVENT_AGE = Duration.hours(6);

export interface AlarmsProps {
  /** who gets the alarms by e-mail (deploy config `alarmEmail`); none: subscribe later */
  email?: string;
}

/**
 * Where failures end up and who hears of them: one SNS topic for every alarm (encrypted with
 * a rotated customer key CloudWatch may use, TLS only, an optional e-mail subscription), a
 * failed-events queue per async-invoked function, and the alarms themselves. Every alarm
 * fires on the first occurrence (>= 1 in 5 minutes) and resolves when it stops.
 */
export class Alarms extends Construct {
  readonly topic: sns.Topic;
  /** every alarm made here (the dashboard shows their state) */
  readonly all: cloudwatch.Alarm[] = [];
  private readonly action: cwActions.SnsAction;

  constructor(scope: Construct, id: string, props: AlarmsProps = {}) {
    super(scope, id);
    // CloudWatch cannot publish to a topic encrypted with the AWS managed SNS key: a key of ours
    const key = new kms.Key(this, 'TopicKey', {
      description: 'Opzione Casa: encrypts the alarms topic',
      enableKeyRotation: true,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    key.grant(new iam.ServicePrincipal('cloudwatch.amazonaws.com'), 'kms:Decrypt', 'kms:GenerateDataKey*');
    this.topic = new sns.Topic(this, 'Topic', {
      displayName: 'Opzione Casa: allarmi',
      masterKey: key,
      enforceSSL: true,
    });
    if (props.email) this.topic.addSubscription(new subscriptions.EmailSubscription(props.email));
    this.action = new cwActions.SnsAction(this.topic);
  }

  /**
   * An async-invoked function (S3 notification, EventBridge schedule): after Lambda's retries
   * the failed event, with the error, goes to a queue of its own (encrypted, TLS only, kept 14
   * days); an alarm fires when the queue holds a message.
   */
  failedEventsQueue(id: string, fn: lambda.IFunction, what: string): sqs.Queue {
    const queue = new sqs.Queue(this, `${id}FailedEvents`, {
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
    });
    acknowledge(queue, {
      id: 'AwsSolutions-SQS3',
      reason: `This queue is itself the dead-letter queue of ${what} (Lambda on-failure destination), watched by an alarm`,
    });
    fn.configureAsyncInvoke({
      onFailure: new destinations.SqsDestination(queue),
      retryAttempts: ASYNC_RETRY_ATTEMPTS,
      maxEventAge: ASYNC_MAX_EVENT_AGE,
    });
    this.alarm(`${id}FailedEventsAlarm`, queue.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(5), statistic: 'Maximum' }), {
      description: `${what}: events failed after every retry are in the queue ${queue.node.path} (read the error there, then redrive or delete)`,
    });
    return queue;
  }

  /** An alarm when the function ends in error (a thrown error or a timeout). */
  functionErrors(id: string, fn: lambda.IFunction, what: string): cloudwatch.Alarm {
    return this.alarm(`${id}ErrorsAlarm`, fn.metricErrors({ period: Duration.minutes(5), statistic: 'Sum' }), {
      description: `${what}: the function ended in error (see its log group)`,
    });
  }

  alarm(id: string, metric: cloudwatch.IMetric, opts: { description: string }): cloudwatch.Alarm {
    const alarm = new cloudwatch.Alarm(this, id, {
      metric,
      threshold: 1,
      evaluationPeriods: 1,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      alarmDescription: opts.description,
    });
    alarm.addAlarmAction(this.action);
    this.all.push(alarm);
    return alarm;
  }
}
