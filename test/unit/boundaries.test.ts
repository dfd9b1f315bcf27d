/**
 * The layer rules of eslint.config.js (docs/architecture.md, section 2) fire: each case lints
 * a made-up file at a real place of the tree, importing a real module, and expects the
 * boundaries rule to refuse exactly the imports that cross a layer.
 */
import { ESLint } from 'eslint';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(__dirname, '../..');
const eslint = new ESLint({ cwd: root });

async function boundaryErrors(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return result!.messages.filter((m) => m.ruleId === 'boundaries/dependencies' || m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('layer boundaries', () => {
  it('refuses an import of another area, and allows the same area, model, domain and lib', async () => {
    const crossing = await boundaryErrors('functions/agents/new-use-case.ts', "import { handler } from '../omi/import-omi';\nexport const x = handler;\n");
    expect(crossing).toEqual([expect.stringContaining('never imports another area')]);

    const allowed = await boundaryErrors(
      'functions/agents/new-use-case.ts',
      [
        "import { handler } from './request-option';",
        "import { keys } from '../model/keys';",
        "import { formatEuro } from '../domain/format';",
        "import { NotFoundError } from '../lib/errors';",
        "import type { Access } from '../routes';",
        'export const x = [handler, keys, formatEuro, NotFoundError] as unknown as Access;',
      ].join('\n'),
    );
    expect(allowed).toEqual([]);
  });

  it('refuses an area from model/, the table from lib/, and anything outside domain/ from domain/', async () => {
    expect(await boundaryErrors('functions/model/new-record.ts', "import { handler } from '../omi/import-omi';\nexport const x = handler;\n")).toEqual([expect.stringContaining('model/ never imports an area')]);
    expect(await boundaryErrors('functions/lib/new-adapter.ts', "import { keys } from '../model/keys';\nexport const x = keys;\n")).toEqual([expect.stringContaining('know no area and no table')]);
    expect(await boundaryErrors('functions/domain/new-rule.ts', "import { NotFoundError } from '../lib/errors';\nexport const x = NotFoundError;\n")).toEqual([expect.stringContaining('is pure')]);
    expect(await boundaryErrors('functions/domain/new-rule.ts', "import { DynamoDBClient } from '@aws-sdk/client-dynamodb';\nexport const x = DynamoDBClient;\n")).toEqual([expect.stringContaining('no AWS')]);
  });

  it('lets lib/http.ts import model/session.ts and nothing else of model/; no other lib/ module may import model/session.ts', async () => {
    // the one exception (route() checks the caller's session against the user's record)
    expect(await boundaryErrors('functions/lib/http.ts', "import { sessionStateOf } from '../model/session';\nexport const x = sessionStateOf;\n")).toEqual([]);
    // any other model/ module from lib/http.ts is still refused
    for (const [mod, name] of [['keys', 'keys'], ['profile', 'getProfile'], ['user', 'setRole'], ['db', 'ddb']] as const) {
      expect(await boundaryErrors('functions/lib/http.ts', `import { ${name} } from '../model/${mod}';\nexport const x = ${name};\n`), mod).toEqual([
        expect.stringContaining('know no area and no table'),
      ]);
    }
    // model/session.ts from any other lib/ module is refused
    for (const file of ['functions/lib/auth.ts', 'functions/lib/new-adapter.ts', 'functions/lib/aws/new-client.ts']) {
      expect(await boundaryErrors(file, "import { sessionStateOf } from '../model/session';\nexport const x = sessionStateOf;\n".replace('../model', file.split('/').length > 3 ? '../../model' : '../model')), file).toEqual([
        expect.stringContaining('know no area and no table'),
      ]);
    }
    // domain/ still may not import it
    expect(await boundaryErrors('functions/domain/new-rule.ts', "import { sessionStateOf } from '../model/session';\nexport const x = sessionStateOf;\n")).toEqual([expect.stringContaining('is pure')]);
  });

  it('refuses a feature of the SPA importing another feature, and allows components and lib', async () => {
    expect(await boundaryErrors('web/src/features/agent/NewPage.tsx', "import NotFoundPage from '../not-found/NotFoundPage';\nexport const x = NotFoundPage;\n")).toEqual([expect.stringContaining('never imports another feature')]);
    expect(await boundaryErrors('web/src/features/agent/NewPage.tsx', "import NotFoundPage from '@/features/not-found/NotFoundPage';\nexport const x = NotFoundPage;\n")).toEqual([expect.stringContaining('never imports another feature')]);
    expect(await boundaryErrors('web/src/features/agent/NewPage.tsx', "import { cn } from '../../lib/cn';\nimport { Button } from '@/components/ui/Button';\nexport const x = [cn, Button];\n")).toEqual([]);
  });
});
