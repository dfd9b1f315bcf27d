import { join } from 'node:path';
import { build } from 'esbuild';
import type { Iam } from '../../functions/routes';
import { REPO_ROOT } from '../../infra/constructs/manifest-function';

/**
 * What a function's code calls on AWS, read from its own bundle: functions/<handler>.ts
 * bundled by esbuild with every package left external, so the output is our code only,
 * tree-shaken to what the handler can reach, and each SDK command class keeps its import
 * (`import { GetCommand as GetCommand2 } from "@aws-sdk/lib-dynamodb"`). Every `new X(`
 * whose X is an SDK command becomes the IAM action(s) it needs, on the resource it acts on.
 *
 * What a command class does not say is read from markers in the same code:
 * - TransactWriteItems: the kinds of item the code builds (`Put:`, `Update:`, `Delete:`,
 *   `ConditionCheck:`), each its own IAM action;
 * - Query: on the table when a key condition names `pk`, on the GSIs when the code sets `IndexName`;
 * - S3: the bucket named by `requireConfig("MEDIA_BUCKET" | "OMI_BUCKET")` (an OMI-drop trigger
 *   reads the bucket of its event: the OMI bucket); a presigned POST is s3:PutObject, with a
 *   `tagging:` field s3:PutObjectTagging too; reading an object and telling a missing one
 *   (`"NotFound"`, `"NoSuchKey"`) needs s3:ListBucket (without it S3 answers 403, not 404).
 */

/** The resources of a declaration (`mediaPrefix` is not one: it narrows `media`). */
type Resource = Exclude<keyof Iam, 'mediaPrefix'>;

export type Derived = { [K in Resource]-?: Set<string> };
type Bucket = 'media' | 'omi';

const emptyDerived = (): Derived => ({
  table: new Set(),
  indexes: new Set(),
  media: new Set(),
  omi: new Set(),
  cognito: new Set(),
  ses: new Set(),
  rekognition: new Set(),
});

/** DynamoDB commands (document and plain client) and the table action each needs. */
const DYNAMODB: Record<string, string> = {
  GetCommand: 'GetItem',
  GetItemCommand: 'GetItem',
  PutCommand: 'PutItem',
  PutItemCommand: 'PutItem',
  UpdateCommand: 'UpdateItem',
  UpdateItemCommand: 'UpdateItem',
  DeleteCommand: 'DeleteItem',
  DeleteItemCommand: 'DeleteItem',
  BatchGetCommand: 'BatchGetItem',
  BatchGetItemCommand: 'BatchGetItem',
  BatchWriteCommand: 'BatchWriteItem',
  BatchWriteItemCommand: 'BatchWriteItem',
  // TransactGetItems is authorized as GetItem on each item
  TransactGetCommand: 'GetItem',
  TransactGetItemsCommand: 'GetItem',
};

/** S3 commands and the action each needs; `bucket`: on the bucket ARN, else on its objects. */
const S3: Record<string, { action: string; also?: readonly string[]; reads?: boolean }> = {
  GetObjectCommand: { action: 'GetObject', reads: true },
  // a server-side copy reads the source (GetObject) and writes the target (PutObject)
  CopyObjectCommand: { action: 'GetObject', also: ['PutObject'], reads: true },
  // HeadObject is authorized as GetObject
  HeadObjectCommand: { action: 'GetObject', reads: true },
  PutObjectCommand: { action: 'PutObject' },
  PutObjectTaggingCommand: { action: 'PutObjectTagging', reads: true },
  DeleteObjectCommand: { action: 'DeleteObject' },
  DeleteObjectsCommand: { action: 'DeleteObject' },
  ListObjectsV2Command: { action: 'ListBucket' },
};

const TRANSACT_ITEM_ACTIONS: Record<string, string> = {
  Put: 'PutItem',
  Update: 'UpdateItem',
  Delete: 'DeleteItem',
  ConditionCheck: 'ConditionCheckItem',
};

export interface SdkCalls {
  derived: Derived;
  /** the command classes found, as `package:Class` */
  commands: string[];
  /** our source files in the bundle */
  files: string[];
  /** the bundle itself */
  code: string;
}

/** Local name -> [package, exported name] of every named import of the bundle. */
function importsOf(code: string): Map<string, [string, string]> {
  const out = new Map<string, [string, string]>();
  for (const m of code.matchAll(/import\s*\{([^}]*)\}\s*from\s*"([^"]+)"/g)) {
    for (const spec of m[1]!.split(',')) {
      const [name, alias] = spec.trim().split(/\s+as\s+/);
      if (name) out.set((alias ?? name).trim(), [m[2]!, name.trim()]);
    }
  }
  return out;
}

export async function sdkCallsOf(def: { id: string; handler: string; source?: string }): Promise<SdkCalls> {
  const result = await build({
    entryPoints: [join(REPO_ROOT, 'functions', `${def.handler}.ts`)],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'node',
    packages: 'external',
    metafile: true,
    logLevel: 'silent',
    tsconfig: join(REPO_ROOT, 'tsconfig.json'),
  });
  const code = result.outputFiles[0]!.text;
  const imports = importsOf(code);
  const derived = emptyDerived();
  const add = (resource: Resource, action: string) => derived[resource].add(action);

  const commands = new Set<string>();
  for (const m of code.matchAll(/\bnew\s+([A-Za-z_$][\w$]*)\s*\(/g)) {
    const imported = imports.get(m[1]!);
    if (imported && imported[0].startsWith('@aws-sdk/') && imported[1].endsWith('Command')) commands.add(`${imported[0]}:${imported[1]}`);
  }
  if (/\bcreatePresignedPost\s*\(/.test(code) && imports.get('createPresignedPost')?.[0] === '@aws-sdk/s3-presigned-post') {
    commands.add('@aws-sdk/s3-presigned-post:createPresignedPost');
  }

  const namedBuckets = (['media', 'omi'] as const).filter((b) => code.includes(`requireConfig("${b === 'media' ? 'MEDIA_BUCKET' : 'OMI_BUCKET'}")`));
  const bucket = (command: string): Bucket => {
    if (namedBuckets.length === 1) return namedBuckets[0]!;
    if (namedBuckets.length === 0 && def.source === 's3:omiDrop') return 'omi';
    throw new Error(`${def.id}: ${command} on which bucket? the code names ${namedBuckets.join(' and ') || 'none'}`);
  };
  const tellsMissing = code.includes('"NotFound"') || code.includes('"NoSuchKey"');

  for (const entry of commands) {
    const [pkg, name] = entry.split(':') as [string, string];
    if (pkg === '@aws-sdk/lib-dynamodb' || pkg === '@aws-sdk/client-dynamodb') {
      if (DYNAMODB[name]) {
        add('table', DYNAMODB[name]);
      } else if (name === 'QueryCommand') {
        const onTable = /KeyConditionExpression:\s*["'`]pk = /.test(code);
        const onIndex = /\bIndexName:/.test(code);
        if (!onTable && !onIndex) throw new Error(`${def.id}: a Query neither on the table (pk = ...) nor on an index (IndexName)`);
        if (onTable) add('table', 'Query');
        if (onIndex) add('indexes', 'Query');
      } else if (name === 'TransactWriteCommand' || name === 'TransactWriteItemsCommand') {
        const kinds = new Set([...code.matchAll(/\b(Put|Update|Delete|ConditionCheck)\s*:/g)].map((k) => k[1]!));
        if (kinds.size === 0) throw new Error(`${def.id}: a TransactWriteItems without items the code builds`);
        for (const k of kinds) add('table', TRANSACT_ITEM_ACTIONS[k]!);
      } else {
        throw new Error(`${def.id}: no IAM mapping for DynamoDB ${name} (test/infra/sdk-calls.ts)`);
      }
    } else if (pkg === '@aws-sdk/client-s3') {
      const s3 = S3[name];
      if (!s3) throw new Error(`${def.id}: no IAM mapping for S3 ${name} (test/infra/sdk-calls.ts)`);
      const b = bucket(name);
      add(b, s3.action);
      for (const a of s3.also ?? []) add(b, a);
      if (s3.reads && tellsMissing) add(b, 'ListBucket');
    } else if (pkg === '@aws-sdk/s3-presigned-post') {
      const b = bucket(name);
      add(b, 'PutObject');
      if (/\btagging:/.test(code)) add(b, 'PutObjectTagging');
    } else if (pkg === '@aws-sdk/client-cognito-identity-provider') {
      add('cognito', name.replace(/Command$/, ''));
    } else if (pkg === '@aws-sdk/client-sesv2') {
      if (name !== 'SendEmailCommand') throw new Error(`${def.id}: no IAM mapping for SES ${name} (test/infra/sdk-calls.ts)`);
      add('ses', 'SendEmail');
    } else if (pkg === '@aws-sdk/client-rekognition') {
      add('rekognition', name.replace(/Command$/, ''));
    } else {
      throw new Error(`${def.id}: no IAM mapping for ${entry} (test/infra/sdk-calls.ts)`);
    }
  }

  const files = Object.keys(result.metafile.inputs).filter((f) => !f.startsWith('node_modules/'));
  return { derived, commands: [...commands].sort(), files, code };
}

/** The derived actions as a manifest `iam` literal (resources without actions left out). */
export function asDeclaration(derived: Derived): Record<string, string[]> {
  return Object.fromEntries(
    Object.entries(derived)
      .filter(([, actions]) => actions.size > 0)
      .map(([resource, actions]) => [resource, [...actions].sort()]),
  );
}
