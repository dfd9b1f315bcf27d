/**
 * The deploy cannot ship placeholders: company, grantee, delegatee and bank account come from
 * CDK context, a synth without them or with the local runtime's demo values fails with a
 * message for the operator, and the Lambdas that write the option and delegation PDFs get
 * the configured parties.
 */
import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { routes, type RouteDef } from '../../functions/routes';
import { DEMO_BANK_TRANSFER, DEMO_COMPANY, DEMO_DELEGATEE, DEMO_GRANTEE } from '../../functions/domain/runtime-config';
import { buildApp, functionIdOf, VALID_DEPLOY_CONTEXT } from './helpers';

const route = (id: string) => (routes as readonly RouteDef[]).find((r) => r.id === id)!;

function synthError(options: Parameters<typeof buildApp>[0]): string {
  try {
    buildApp(options).dispose();
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error('the synth did not fail');
}

describe('deploy configuration of the parties', () => {
  it('refuses a synth without the contexts, naming each one and the docs', () => {
    const message = synthError({ requiredContext: false });
    expect(message).toContain('docs/deploy.md');
    for (const key of ['company', 'grantee', 'delegatee', 'bankTransfer']) expect(message).toContain(`Missing CDK context '${key}'`);
    expect(synthError({ context: { grantee: undefined } })).toMatch(/Missing CDK context 'grantee': the company that buys the purchase option/);
  });

  it('refuses the demo values of the local runtime', () => {
    const message = synthError({
      context: {
        company: DEMO_COMPANY,
        grantee: DEMO_GRANTEE,
        delegatee: DEMO_DELEGATEE,
        bankTransfer: JSON.stringify({ iban: DEMO_BANK_TRANSFER.iban }),
      },
    });
    for (const path of ['company.vatNumber', 'company.address', 'grantee.vatNumber', 'grantee.address', 'delegatee.administrator', 'bankTransfer.iban']) {
      expect(message).toContain(`CDK context '${path}' is the local demo value`);
    }
    // the demo IBAN however it is written
    expect(synthError({ context: { bankTransfer: { iban: 'it60x0542811101000000123456' } } })).toContain("'bankTransfer.iban' is the local demo value");
  });

  it('refuses malformed VAT numbers, IBANs and JSON', () => {
    expect(synthError({ context: { grantee: { ...VALID_DEPLOY_CONTEXT.grantee, vatNumber: '1234567890' } } })).toMatch(/Invalid CDK context: grantee\.vatNumber: not an Italian VAT number/);
    expect(synthError({ context: { company: { ...VALID_DEPLOY_CONTEXT.company, vatNumber: 'IT09876543210' } } })).toMatch(/company\.vatNumber: not an Italian VAT number/);
    expect(synthError({ context: { bankTransfer: { iban: 'IT14L0306909606100000012345' } } })).toMatch(/bankTransfer\.iban: not an Italian IBAN/);
    expect(synthError({ context: { delegatee: { company: 'Pratiche Esempio S.r.l.' } } })).toMatch(/delegatee\.administrator/);
    expect(synthError({ context: { grantee: '{"name":' } })).toMatch(/Invalid CDK context: grantee: not valid JSON/);
  });

  it('with valid values: the option and delegation functions get the grantee and the delegatee', () => {
    const built = buildApp({ context: { delegatee: JSON.stringify({ company: 'Deleghe Prova S.r.l.', administrator: 'Paolo Neri' }) } });
    try {
      const template = Template.fromStack(built.api);
      const vars = (id: string) => template.toJSON().Resources[functionIdOf(template, route(id))].Properties.Environment.Variables as Record<string, unknown>;
      const grantee = VALID_DEPLOY_CONTEXT.grantee;
      expect(vars('createOption')).toMatchObject({ GRANTEE_NAME: grantee.name, GRANTEE_VAT_NUMBER: grantee.vatNumber, GRANTEE_ADDRESS: grantee.address });
      expect(vars('generateDelegations')).toMatchObject({ DELEGATEE_COMPANY: 'Deleghe Prova S.r.l.', DELEGATEE_ADMINISTRATOR: 'Paolo Neri' });
      expect(built.web.runtimeConfig.company).toEqual(VALID_DEPLOY_CONTEXT.company);
      expect(built.web.runtimeConfig.payments.bankTransfer).toEqual({ iban: VALID_DEPLOY_CONTEXT.bankTransfer.iban, beneficiary: VALID_DEPLOY_CONTEXT.company.name });
      expect(JSON.stringify(template.toJSON())).not.toContain('Marco Ferrari');
    } finally {
      built.dispose();
    }
  });
});
