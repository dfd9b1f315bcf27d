/**
 * The one place AWS SDK clients are made, one module per client so each Lambda bundles
 * only the SDKs it uses. On AWS no endpoint is set and the SDK uses the Lambda role;
 * locally the endpoints point at the emulators.
 */
export { s3 } from './s3';
export { ses } from './ses';
export { cognito } from './cognito';
export { resetAws } from './shared';
