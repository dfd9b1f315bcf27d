/**
 * The agents' payments at deploy: only the functions with `stripe: true` in the manifest get
 * the name of Stripe's Secrets Manager secret, read at run time (never a value nor a dynamic
 * reference in the template, test/infra/secrets.test.ts); config.json says whether the card is on and which account the bank transfer uses.
 */
import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { routes, type RouteDef } from '../../functions/routes';
import { buildApp, functionIdOf, VALID_DEPLOY_CONTEXT } from './helpers';

const withStripe = (def: RouteDef) => def.stripe === true;

describe('Stripe and the bank transfer at deploy', () => {
  it('names the Stripe secret only to the functions with stripe: true', () => {
    const built = buildApp({
      context: { stripe: '{"secretName":"opzionecasa/stripe"}', bankTransfer: '{"iban":"IT73Z0200801600000012345678"}', company: JSON.stringify({ ...VALID_DEPLOY_CONTEXT.company, name: 'Casa Esempio Due S.r.l.' }) },
    });
    try {
      const template = Template.fromStack(built.api);
      const stripeRoutes = (routes as readonly RouteDef[]).filter(withStripe).map((r) => r.id);
      expect(stripeRoutes.sort()).toEqual(['createAgentPayment', 'stripeWebhook']);
      for (const def of routes as readonly RouteDef[]) {
        const vars = template.toJSON().Resources[functionIdOf(template, def)].Properties.Environment.Variables as Record<string, unknown>;
        if (withStripe(def)) {
          // the secret's name only: the function reads it at run time (test/infra/secrets.test.ts)
          expect(vars.STRIPE_SECRET_ID, def.id).toBe('opzionecasa/stripe');
          expect(vars.STRIPE_SECRET_KEY, def.id).toBeUndefined();
          expect(vars.STRIPE_WEBHOOK_SECRET, def.id).toBeUndefined();
        } else {
          expect(Object.keys(vars).filter((k) => k.startsWith('STRIPE')), def.id).toEqual([]);
        }
      }
      expect(JSON.stringify(template.toJSON())).not.toMatch(/sk_(live|test)_/);
      expect(built.web.runtimeConfig.payments).toEqual({ card: true, bankTransfer: { iban: 'IT73Z0200801600000012345678', beneficiary: 'Casa Esempio Due S.r.l.' } });
    } finally {
      built.dispose();
    }
  });

  it('without stripe: no card, the configured account', () => {
    const built = buildApp();
    try {
      const template = Template.fromStack(built.api);
      expect(JSON.stringify(template.toJSON())).not.toMatch(/STRIPE_SECRET_KEY|STRIPE_SECRET_ID/);
      expect(built.web.runtimeConfig.payments).toEqual({ card: false, bankTransfer: { iban: VALID_DEPLOY_CONTEXT.bankTransfer.iban, beneficiary: VALID_DEPLOY_CONTEXT.company.name } });
    } finally {
      built.dispose();
    }
  });

  it('refuses a malformed context at synth', () => {
    expect(() => buildApp({ context: { stripe: '{"secretName":""}' } })).toThrow(/Invalid CDK context: stripe/);
    expect(() => buildApp({ context: { bankTransfer: '{"iban":"x"}' } })).toThrow(/Invalid CDK context: bankTransfer/);
  });
});
