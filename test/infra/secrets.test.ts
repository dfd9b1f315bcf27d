/**
 * No secret in a Lambda's environment (issue 18): with Stripe configured, no function of any
 * stack carries a secret value or a reference CloudFormation would resolve into one
 * ({{resolve:secretsmanager:...}}, {{resolve:ssm-secure:...}}): the functions get the secret's
 * name or ARN, read access to it and the AWS Parameters and Secrets extension, and read the
 * value at run time (functions/lib/secrets.ts, functions/lib/origin.ts).
 */
import { Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes, type RouteDef } from '../../functions/routes';
import { buildApp, functionIdOf, roleIdOf, statementsOfRole } from './helpers';

type Resource = ReturnType<Template['findResources']>[string];

const STRIPE_NAME = 'opzionecasa/stripe';

describe('secrets are read at run time, never put in an environment', () => {
  let built: ReturnType<typeof buildApp>;
  let templates: [string, Template][];
  beforeAll(() => {
    built = buildApp({ context: { stripe: JSON.stringify({ secretName: STRIPE_NAME }), alarmEmail: 'guasti@example.test' } });
    templates = (['data', 'auth', 'api', 'edge', 'web'] as const).map((name) => [name, Template.fromStack(built[name])]);
  });
  afterAll(() => built.dispose());

  const functionsOf = (t: Template) => Object.entries(t.findResources('AWS::Lambda::Function')) as [string, Resource][];

  it('no function of any stack has a secret value or a dynamic reference to a secret in its environment', () => {
    let checked = 0;
    for (const [stack, template] of templates) {
      for (const [id, fn] of functionsOf(template)) {
        const vars = JSON.stringify(fn.Properties.Environment?.Variables ?? {});
        expect(vars, `${stack}/${id}`).not.toMatch(/\{\{resolve:(secretsmanager|ssm-secure)/);
        expect(vars, `${stack}/${id}`).not.toMatch(/sk_(live|test)_|whsec_/);
        for (const name of ['IP_HASH_SALT', 'STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET', 'ORIGIN_SECRET']) {
          expect(Object.keys(fn.Properties.Environment?.Variables ?? {}), `${stack}/${id}`).not.toContain(name);
        }
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(routes.length);
  });

  it('the payment functions get the name of the Stripe secret, read access to it only and the extension', () => {
    const api = templates.find(([name]) => name === 'api')![1];
    const resources = api.toJSON().Resources as Record<string, Resource>;
    for (const def of routes as readonly RouteDef[]) {
      const fnId = functionIdOf(api, def);
      const vars = resources[fnId]!.Properties.Environment.Variables as Record<string, unknown>;
      const reads = statementsOfRole(api, roleIdOf(api, fnId))
        .filter((s) => [s.Action].flat().includes('secretsmanager:GetSecretValue'))
        .map((s) => JSON.stringify(s.Resource));
      const readsStripe = reads.some((r) => r.includes(`secret:${STRIPE_NAME}-??????`));
      if (def.stripe) {
        expect(vars.STRIPE_SECRET_ID, def.id).toBe(STRIPE_NAME);
        expect(readsStripe, def.id).toBe(true);
        expect(JSON.stringify(resources[fnId]!.Properties.Layers), def.id).toMatch(/AWS-Parameters-and-Secrets-Lambda-Extension-Arm64/);
      } else {
        expect(Object.keys(vars).filter((k) => k.startsWith('STRIPE')), def.id).toEqual([]);
        // a shared role must not hand Stripe's secret to a route without `stripe`
        expect(readsStripe, def.id).toBe(false);
      }
    }
  });

  it('every HTTP route gets the ARN of the IP salt and read access to it', () => {
    const api = templates.find(([name]) => name === 'api')![1];
    const resources = api.toJSON().Resources as Record<string, Resource>;
    const saltIds = Object.keys(api.findResources('AWS::SecretsManager::Secret')).filter((id) => id.startsWith('IpHashSalt'));
    expect(saltIds).toHaveLength(1);
    for (const def of routes as readonly RouteDef[]) {
      const fnId = functionIdOf(api, def);
      expect(resources[fnId]!.Properties.Environment.Variables.IP_HASH_SALT_ARN, def.id).toEqual({ Ref: saltIds[0] });
      const reads = statementsOfRole(api, roleIdOf(api, fnId)).filter((s) => [s.Action].flat().includes('secretsmanager:GetSecretValue'));
      expect(JSON.stringify(reads.map((s) => s.Resource)), def.id).toContain(JSON.stringify({ Ref: saltIds[0] }));
    }
  });
});
