import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { REPO_ROOT } from '../constructs/manifest-function';
import { addNagChecks } from '../constructs/nag';
import { createProductStacks } from '../stacks';
import { FEATURE_FLAGS } from '../stacks/deploy-config';

const app = new App({ context: FEATURE_FLAGS });

// `npm run deploy` builds the SPA first; a plain synth without a build deploys config.json only.
const webDist = join(REPO_ROOT, 'web', 'dist');
createProductStacks(app, { webDistPath: existsSync(join(webDist, 'index.html')) ? webDist : undefined });

// AWS Solutions checks on every synth: an unacknowledged finding fails `cdk synth`.
addNagChecks(app);

app.synth();
