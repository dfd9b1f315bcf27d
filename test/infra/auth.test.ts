import { Match, Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GROUPS, MIN_PASSWORD_LENGTH } from '../../functions/domain/roles';
import { triggers } from '../../functions/routes';
import { CONFIRMATION_MAIL_SUBJECT } from '../../functions/domain/auth-mail';
import { actionsOfRole, buildApp, functionIdOf, roleIdOf, statementsOfRole } from './helpers';

const COGNITO_TRIGGER_KEYS = {
  'cognito:preSignUp': 'PreSignUp',
  'cognito:postConfirmation': 'PostConfirmation',
  'cognito:preTokenGeneration': 'PreTokenGeneration',
} as const;

describe('auth stack', () => {
  let template: Template;
  let stacks: ReturnType<typeof buildApp>;

  beforeAll(() => {
    stacks = buildApp();
    template = Template.fromStack(stacks.auth);
  });
  afterAll(() => stacks.dispose());

  it('signs people up by e-mail with the specification\'s password rule (min 6, nothing else)', () => {
    template.hasResourceProperties('AWS::Cognito::UserPool', {
      UsernameAttributes: ['email'],
      AutoVerifiedAttributes: ['email'],
      AdminCreateUserConfig: { AllowAdminCreateUserOnly: false },
      Policies: {
        PasswordPolicy: {
          MinimumLength: MIN_PASSWORD_LENGTH,
          RequireLowercase: false,
          RequireUppercase: false,
          RequireNumbers: false,
          RequireSymbols: false,
        },
      },
    });
    expect(MIN_PASSWORD_LENGTH).toBe(6);
  });

  it('proves the e-mail with a code Cognito sends from the product\'s SES sender, in Italian', () => {
    template.hasResourceProperties('AWS::Cognito::UserPool', {
      AutoVerifiedAttributes: ['email'],
      VerificationMessageTemplate: Match.objectLike({
        DefaultEmailOption: 'CONFIRM_WITH_CODE',
        EmailSubject: CONFIRMATION_MAIL_SUBJECT,
        EmailMessage: Match.stringLikeRegexp('\\{####\\}'),
      }),
      EmailConfiguration: Match.objectLike({ EmailSendingAccount: 'DEVELOPER', From: Match.stringLikeRegexp('Opzione Casa') }),
    });
  });

  it('offers TOTP MFA (no SMS) and enforces threat protection on the Plus plan', () => {
    template.hasResourceProperties('AWS::Cognito::UserPool', {
      MfaConfiguration: 'OPTIONAL',
      EnabledMfas: ['SOFTWARE_TOKEN_MFA'],
      UserPoolTier: 'PLUS',
      UserPoolAddOns: { AdvancedSecurityMode: 'ENFORCED' },
    });
    const pool = Object.values(template.findResources('AWS::Cognito::UserPool'))[0]!;
    expect(pool.Properties.SmsConfiguration).toBeUndefined();
  });

  it('lets only the pre token generation trigger read a user (its MFA settings), through a separate policy', () => {
    const def = triggers.find((t) => t.source === 'cognito:preTokenGeneration')!;
    expect(def.iam).toEqual({ cognito: ['AdminGetUser'] });
    const policies = Object.values(template.findResources('AWS::IAM::Policy')).filter((p) =>
      JSON.stringify(p.Properties.PolicyDocument).includes('cognito-idp:AdminGetUser'),
    );
    expect(policies).toHaveLength(1);
  });

  it('has the email, name and phone attributes and the custom user_type', () => {
    template.hasResourceProperties('AWS::Cognito::UserPool', {
      Schema: Match.arrayWith([
        Match.objectLike({ Name: 'email', Required: true }),
        Match.objectLike({ Name: 'name', Required: false }),
        Match.objectLike({ Name: 'phone_number', Required: false }),
        Match.objectLike({ Name: 'user_type', AttributeDataType: 'String', Mutable: false }),
      ]),
    });
  });

  it('has the groups admin, agent and seller', () => {
    const groups = Object.values(template.findResources('AWS::Cognito::UserPoolGroup')).map((g) => g.Properties.GroupName);
    expect(groups.sort()).toEqual([...GROUPS].sort());
  });

  it('wires every Cognito trigger of the manifest to its own function', () => {
    const cognitoTriggers = triggers.filter((t) => t.source in COGNITO_TRIGGER_KEYS);
    expect(cognitoTriggers.map((t) => t.source).sort()).toEqual(['cognito:postConfirmation', 'cognito:preSignUp', 'cognito:preTokenGeneration']);
    const lambdaConfig: Record<string, unknown> = {};
    for (const def of cognitoTriggers) {
      const fnId = functionIdOf(template, def);
      lambdaConfig[COGNITO_TRIGGER_KEYS[def.source as keyof typeof COGNITO_TRIGGER_KEYS]] = { 'Fn::GetAtt': [fnId, 'Arn'] };
      template.hasResourceProperties('AWS::Lambda::Permission', {
        Action: 'lambda:InvokeFunction',
        Principal: 'cognito-idp.amazonaws.com',
        FunctionName: { 'Fn::GetAtt': [fnId, 'Arn'] },
      });
    }
    template.hasResourceProperties('AWS::Cognito::UserPool', { LambdaConfig: lambdaConfig });
  });

  it('lets post-confirmation write the profile and add the group, through a separate policy', () => {
    const def = triggers.find((t) => t.source === 'cognito:postConfirmation')!;
    const roleId = roleIdOf(template, functionIdOf(template, def));
    const actions = actionsOfRole(template, roleId);
    expect(actions).toContain('dynamodb:PutItem');
    expect(actions).toContain('cognito-idp:AdminAddUserToGroup');
    const poolId = stacks.auth.getLogicalId(stacks.auth.userPool.node.defaultChild as never);
    const cognitoStatement = statementsOfRole(template, roleId).find((s) => [s.Action].flat().includes('cognito-idp:AdminAddUserToGroup'));
    expect(cognitoStatement?.Resource).toEqual({ 'Fn::GetAtt': [poolId, 'Arn'] });
    // the pool ARN is not in the default policy, which the function depends on
    const defaultPolicies = template.findResources('AWS::IAM::Policy', {
      Properties: { Roles: [{ Ref: roleId }], PolicyName: Match.stringLikeRegexp('DefaultPolicy') },
    });
    expect(Object.keys(defaultPolicies)).toHaveLength(1);
    expect(JSON.stringify(defaultPolicies)).not.toContain(poolId);
  });

  it('gives the triggers the table name but not the pool id (that would be a cycle)', () => {
    for (const def of triggers.filter((t) => t.source in COGNITO_TRIGGER_KEYS)) {
      const fn = template.toJSON().Resources[functionIdOf(template, def)];
      expect(fn.Properties.Environment.Variables).toHaveProperty('TABLE_NAME');
      expect(fn.Properties.Environment.Variables).not.toHaveProperty('USER_POOL_ID');
    }
  });

  it('has an app client without secret for USER_PASSWORD_AUTH and SRP, no OAuth', () => {
    template.resourceCountIs('AWS::Cognito::UserPoolClient', 1);
    template.hasResourceProperties('AWS::Cognito::UserPoolClient', {
      GenerateSecret: false,
      ExplicitAuthFlows: Match.arrayWith(['ALLOW_USER_PASSWORD_AUTH', 'ALLOW_USER_SRP_AUTH', 'ALLOW_REFRESH_TOKEN_AUTH']),
      PreventUserExistenceErrors: 'ENABLED',
      AllowedOAuthFlowsUserPoolClient: false,
    });
  });

  it('keeps the verified e-mail until a new one is confirmed (no takeover by UpdateUserAttributes)', () => {
    template.hasResourceProperties('AWS::Cognito::UserPool', {
      AutoVerifiedAttributes: ['email'],
      UserAttributeUpdateSettings: { AttributesRequireVerificationBeforeUpdate: ['email'] },
    });
  });

  it('issues ID and access tokens for one hour, refresh tokens for 30 days, revocable', () => {
    template.hasResourceProperties('AWS::Cognito::UserPoolClient', {
      IdTokenValidity: 60,
      AccessTokenValidity: 60,
      RefreshTokenValidity: 43200,
      TokenValidityUnits: { IdToken: 'minutes', AccessToken: 'minutes', RefreshToken: 'minutes' },
      EnableTokenRevocation: true,
    });
  });

  it('keeps the user pool when the stack is deleted', () => {
    template.hasResource('AWS::Cognito::UserPool', { DeletionPolicy: 'Retain' });
  });
});
