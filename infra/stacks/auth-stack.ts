import { CfnOutput, Duration, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import * as cognito from 'aws-cdk-lib/aws-cognito';
import type { Construct } from 'constructs';
import { GROUPS, MIN_PASSWORD_LENGTH } from '../../functions/domain/roles';
import { COGNITO_CODE_PLACEHOLDER, CONFIRMATION_MAIL_SUBJECT, confirmationCodeHtml } from '../../functions/domain/auth-mail';
import { triggers as manifestTriggers, type TriggerDef } from '../../functions/routes';
import { ManifestFunction, type FunctionResources } from '../constructs/manifest-function';
import { acknowledge } from '../constructs/nag';

export interface AuthStackProps extends StackProps {
  /** resources for the trigger functions, without the pool (it is made here) */
  resources: Omit<FunctionResources, 'userPool'>;
  /** defaults to the real manifest */
  triggers?: readonly TriggerDef[];
}

/** The pool operation of each Cognito trigger source of the manifest. */
const COGNITO_TRIGGERS = {
  'cognito:preSignUp': cognito.UserPoolOperation.PRE_SIGN_UP,
  'cognito:postConfirmation': cognito.UserPoolOperation.POST_CONFIRMATION,
  'cognito:preTokenGeneration': cognito.UserPoolOperation.PRE_TOKEN_GENERATION,
} satisfies Partial<Record<TriggerDef['source'], cognito.UserPoolOperation>>;

type CognitoSource = keyof typeof COGNITO_TRIGGERS;

function isCognitoSource(source: TriggerDef['source']): source is CognitoSource {
  return source in COGNITO_TRIGGERS;
}

/** Group precedence: the lowest number wins when a user is in several groups. */
const GROUP_PRECEDENCE: Record<(typeof GROUPS)[number], number> = { admin: 0, agent: 10, seller: 20 };

/**
 * The user pool (sign-in by e-mail, groups admin/agent/seller) and its app client for the SPA.
 * The Cognito triggers of the manifest live here because the pool references them.
 */
export class AuthStack extends Stack {
  readonly userPool: cognito.UserPool;
  readonly userPoolClient: cognito.UserPoolClient;
  readonly triggerFunctions: Record<string, ManifestFunction> = {};

  constructor(scope: Construct, id: string, props: AuthStackProps) {
    super(scope, id, props);

    this.userPool = new cognito.UserPool(this, 'UserPool', {
      selfSignUpEnabled: true,
      signInAliases: { email: true },
      signInCaseSensitive: false,
      // the e-mail is proven with the code Cognito sends at sign-up (the pre sign-up trigger
      // confirms nothing); the message is the product's, from the product's SES sender
      autoVerify: { email: true },
      // a new e-mail takes effect only once its code is confirmed: until then the login (and
      // every token) keeps the verified one, so nobody takes over a co-owner link or an
      // invitation by typing the invited address into their own account (UpdateUserAttributes)
      keepOriginal: { email: true },
      userVerification: {
        emailStyle: cognito.VerificationEmailStyle.CODE,
        emailSubject: CONFIRMATION_MAIL_SUBJECT,
        emailBody: confirmationCodeHtml(COGNITO_CODE_PLACEHOLDER),
      },
      email: cognito.UserPoolEmail.withSES({ fromEmail: props.resources.mailFrom, fromName: 'Opzione Casa' }),
      accountRecovery: cognito.AccountRecovery.EMAIL_ONLY,
      // TOTP (an authenticator app) for whoever turns it on, SMS never; admins must have it
      // (the API refuses an admin without it: docs/architecture.md, section 4)
      mfa: cognito.Mfa.OPTIONAL,
      mfaSecondFactor: { otp: true, sms: false, email: false },
      // threat protection (compromised credentials, adaptive authentication) enforced
      featurePlan: cognito.FeaturePlan.PLUS,
      standardThreatProtectionMode: cognito.StandardThreatProtectionMode.FULL_FUNCTION,
      standardAttributes: {
        email: { required: true, mutable: true },
        fullname: { required: false, mutable: true },
        phoneNumber: { required: false, mutable: true },
      },
      customAttributes: {
        // set at sign-up, then fixed: a user must not turn themselves into another user type
        // (the profile item keeps the user type the app uses; groups carry the permissions)
        user_type: new cognito.StringAttribute({ minLen: 1, maxLen: 32, mutable: false }),
      },
      passwordPolicy: {
        minLength: MIN_PASSWORD_LENGTH,
        requireLowercase: false,
        requireUppercase: false,
        requireDigits: false,
        requireSymbols: false,
        tempPasswordValidity: Duration.days(7),
      },
      removalPolicy: RemovalPolicy.RETAIN,
    });

    acknowledge(
      this.userPool,
      { id: 'AwsSolutions-COG1', reason: 'The specification mandates a minimum password length of 6 and no character-class rules' },
      { id: 'AwsSolutions-COG2', reason: 'MFA is OPTIONAL (TOTP only): required for admins (enforced by the API), not for sellers and agents, whose flows in the specification have no MFA step' },
    );

    // USER_POOL_ID is left out of the triggers' environment (the pool would depend on itself);
    // they read the pool id from the event. `cognito:admin` on a trigger goes into a separate
    // IAM policy for the same reason (see ManifestFunction).
    const wired = new Set<CognitoSource>();
    for (const def of props.triggers ?? manifestTriggers) {
      if (!isCognitoSource(def.source)) continue;
      if (wired.has(def.source)) throw new Error(`Two manifest triggers for ${def.source}`);
      wired.add(def.source);
      const fn = new ManifestFunction(this, `${capitalize(def.id)}Trigger`, {
        def,
        resources: { ...props.resources, userPool: this.userPool },
      });
      this.userPool.addTrigger(COGNITO_TRIGGERS[def.source], fn.fn);
      this.triggerFunctions[def.id] = fn;
    }

    for (const group of GROUPS) {
      new cognito.CfnUserPoolGroup(this, `Group${capitalize(group)}`, {
        userPoolId: this.userPool.userPoolId,
        groupName: group,
        precedence: GROUP_PRECEDENCE[group],
      });
    }

    this.userPoolClient = this.userPool.addClient('WebClient', {
      generateSecret: false,
      // USER_PASSWORD_AUTH as well as SRP: the local Cognito emulator has no SRP (docs/architecture.md)
      authFlows: { userPassword: true, userSrp: true },
      preventUserExistenceErrors: true,
      disableOAuth: true,
      enableTokenRevocation: true,
      // 1 hour (the API accepts an admin's token for 15 minutes only, ADMIN_TOKEN_MAX_AGE_SECONDS,
      // and the SPA refreshes it silently): a shorter validity for everyone would cost sellers
      // and agents refreshes for nothing, since route() checks every token against the user's
      // valid-after instant anyway
      idTokenValidity: Duration.hours(1),
      accessTokenValidity: Duration.hours(1),
      refreshTokenValidity: Duration.days(30),
    });

    new CfnOutput(this, 'UserPoolId', { value: this.userPool.userPoolId });
    new CfnOutput(this, 'UserPoolClientId', { value: this.userPoolClient.userPoolClientId });
  }
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
