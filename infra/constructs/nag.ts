import { CfnResource, Validations, type IPolicyValidationContext, type IPolicyValidationPlugin } from 'aws-cdk-lib';
import { AwsSolutionsChecks, rules } from 'cdk-nag';
import type { IConstruct } from 'constructs';

/**
 * cdk-nag 3 acknowledgements. Plain rule ids go through `Validations.acknowledge`.
 *
 * IAM4/IAM5 report one finding per policy entry, e.g.
 * `AwsSolutions-IAM5[Resource::OpzioneCasaData:ExportsOutputFnGetAttTable...Arn.../index/*]`,
 * and only an exact id acknowledges one. Those ids contain generated logical ids and export
 * names that exist only once the app is synthesized, so `acknowledgeFindings` records
 * patterns, and `addNagChecks` runs them just before the checks: the same cdk-nag rule is
 * evaluated, and each finding that matches a pattern is acknowledged with that pattern's
 * reason. A finding no pattern expects still fails the synth.
 *
 * Rules of this repository (test/infra/nag.test.ts): every acknowledgement has a written
 * reason, sits on the resource or construct it is about (never on a stack), IAM4/IAM5 are only
 * acknowledged finding by finding through anchored patterns, and a pattern that matches no
 * finding is an error (`findingAcknowledgementsOf`).
 */

export interface Acknowledgement {
  id: string;
  reason: string;
}

export function acknowledge(scope: IConstruct, ...acks: Acknowledgement[]): void {
  for (const ack of acks) Validations.of(scope).acknowledge(ack);
}

type FindingRuleId = 'AwsSolutions-IAM4' | 'AwsSolutions-IAM5';

export interface FindingAcknowledgement {
  id: FindingRuleId;
  /** tested against the finding, e.g. `Resource::<MediaBucket1234.Arn>/*` */
  findings: RegExp;
  reason: string;
}

const FINDING_RULES: Record<FindingRuleId, (node: CfnResource) => unknown> = {
  'AwsSolutions-IAM4': rules.iam.IAMNoManagedPolicies,
  'AwsSolutions-IAM5': rules.iam.IAMNoWildcardPermissions,
};

/** The AWS managed policy every Lambda role gets for writing its logs. */
export const LAMBDA_BASIC_EXECUTION: FindingAcknowledgement = {
  id: 'AwsSolutions-IAM4',
  findings: /^Policy::arn:<AWS::Partition>:iam::aws:policy\/service-role\/AWSLambdaBasicExecutionRole$/,
  reason: "AWSLambdaBasicExecutionRole only allows writing the function's own CloudWatch logs",
};

const pending = new WeakMap<IConstruct, FindingAcknowledgement[]>();

/** One registered pattern of an app and how many findings it acknowledged. */
export interface FindingAcknowledgementUse {
  /** the construct it was registered on */
  path: string;
  ack: FindingAcknowledgement;
  matched: number;
}

const uses = new WeakMap<IConstruct, FindingAcknowledgementUse[]>();

/** The patterns registered under `app` and their matches, once its checks ran (synth). */
export function findingAcknowledgementsOf(app: IConstruct): readonly FindingAcknowledgementUse[] {
  return uses.get(app) ?? [];
}

/** Acknowledge the findings matching these patterns on every resource under `scope`. */
export function acknowledgeFindings(scope: IConstruct, ...acks: FindingAcknowledgement[]): void {
  pending.set(scope, [...(pending.get(scope) ?? []), ...acks]);
}

function applyFindingAcknowledgements(root: IConstruct): void {
  const registered = new Map<IConstruct, FindingAcknowledgementUse[]>();
  for (const scope of root.node.findAll()) {
    const acks = pending.get(scope);
    if (acks) registered.set(scope, acks.map((ack) => ({ path: scope.node.path, ack, matched: 0 })));
  }
  for (const node of root.node.findAll()) {
    if (!CfnResource.isCfnResource(node)) continue;
    for (const use of node.node.scopes.flatMap((s) => registered.get(s) ?? [])) {
      const result = FINDING_RULES[use.ack.id](node);
      if (!Array.isArray(result)) continue;
      for (const finding of result as string[]) {
        if (use.ack.findings.test(finding)) {
          use.matched++;
          Validations.of(node).acknowledge({ id: `${use.ack.id}[${finding}]`, reason: use.ack.reason });
        }
      }
    }
  }
  uses.set(root, [...registered.values()].flat());
}

/** The AWS Solutions checks, with the finding patterns applied first. */
export function nagChecks(app: IConstruct): IPolicyValidationPlugin {
  const pack = new AwsSolutionsChecks(app);
  return {
    name: pack.name,
    version: pack.version,
    ruleIds: pack.ruleIds,
    validate(context: IPolicyValidationContext) {
      applyFindingAcknowledgements(context.appConstruct);
      return pack.validate(context);
    },
  };
}

export function addNagChecks(app: IConstruct): void {
  Validations.of(app).addPlugins(nagChecks(app));
}
