/**
 * `npm run bench:omi-state` (tsx bench/omi-state.ts): what every valuation pays to know the
 * OMI data state, with 30 semesters of national data loaded, on the local stack as `npm start`
 * runs it (DynamoDB Local on disk).
 *
 * Data: 30 semester manifests as national imports leave them (every province of the ISTAT
 * list, each with its listing index and comune digest refs, 55 comuni under an old province
 * code in MI's), written directly: synthetic manifests, since the repository holds one
 * national semester and importing it 30 times would take ~1 h on this machine. What is
 * measured is the read of the state, which depends only on the manifests' size.
 *
 * Rows: the state as a valuation reads it (omiDataState: one GetItem of the data state
 * version while it stays the same), the first read after a change (the version, then every
 * manifest), and the Query of every manifest the valuation made on each call before the
 * version item (projected to semester, updatedAt, dirty: DynamoDB still reads each whole item).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import './quiet';
import { startLocalStack } from '../infra/local/stack';
import { PROVINCES } from '../functions/domain/places/provinces';
import { ddb } from '../functions/model/db';
import { omiKeys } from '../functions/model/keys';
import { bumpDataState } from '../functions/model/omi/data-state';
import { omiDataState } from '../functions/model/omi/semesters';
import { latency, machine, writeResults } from './support';

const SEMESTERS = Array.from({ length: 30 }, (_, i) => `${2011 + Math.floor(i / 2)}-S${(i % 2) + 1}`);
const CALLS = 200;

async function timed(calls: number, f: () => Promise<unknown>) {
  const ms: number[] = [];
  for (let i = 0; i < calls + 5; i++) {
    const t = performance.now();
    await f();
    if (i >= 5) ms.push(performance.now() - t);
  }
  return latency(ms);
}

const dataDir = await mkdtemp(path.join(os.tmpdir(), 'opzione-casa-bench-state-'));
const stack = await startLocalStack({ appOrigin: 'http://localhost:5173', dataDir });
try {
  const TableName = process.env.TABLE_NAME!;
  const provinces = PROVINCES.map((p) => p.code);
  for (const semester of SEMESTERS) {
    const item = {
      ...omiKeys.semester(semester),
      entity: 'omiSemester',
      semester,
      updatedAt: new Date().toISOString(),
      provinces: new Set(provinces),
      historyIndexed: new Set(provinces),
      index: Object.fromEntries(provinces.map((p) => [p, { v: 'a1b2c3d4', parts: 1, rows: 1500, zones: 230 }])),
      digests: Object.fromEntries(provinces.map((p) => [p, { v: 'e5f6a7b8', n: 10, b: Date.now(), f: p === 'MI' ? Array.from({ length: 55 }, (_, k) => String(108001 + k)) : [] }])),
    };
    await ddb().send(new PutCommand({ TableName, Item: item }));
  }
  await bumpDataState();
  const manifestBytes = JSON.stringify([...(await ddb().send(new QueryCommand({ TableName, KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)', ExpressionAttributeValues: { ':pk': 'OMI#META', ':p': 'SEM#' } }))).Items!]).length;
  const state = await timed(CALLS, () => omiDataState());
  const firstReads: number[] = [];
  for (let i = 0; i < 30; i++) {
    await bumpDataState();
    const t = performance.now();
    await omiDataState();
    firstReads.push(performance.now() - t);
  }
  const everyManifest = await timed(CALLS, () =>
    ddb().send(
      new QueryCommand({
        TableName,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
        ExpressionAttributeValues: { ':pk': 'OMI#META', ':p': 'SEM#' },
        ProjectionExpression: 'semester, updatedAt, dirty',
        ScanIndexForward: false,
        ConsistentRead: true,
      }),
    ),
  );
  const results = {
    at: new Date().toISOString(),
    machine: machine(),
    dynamodb: '-dbPath (as npm start)',
    manifests: { semesters: SEMESTERS.length, provincesEach: provinces.length, jsonBytes: manifestBytes },
    stateRead: state,
    firstReadAfterChange: latency(firstReads),
    previousPerCallQuery: everyManifest,
  };
  console.table({
    'omiDataState (version unchanged)': state,
    'omiDataState, first read after a change': latency(firstReads),
    'before: Query of every manifest, each call': everyManifest,
  });
  console.log(`manifests: ${SEMESTERS.length} x ${provinces.length} provinces, ${Math.round(manifestBytes / 1024)} KB as JSON`);
  console.log(`-> ${await writeResults('omi-state', results)}`);
} finally {
  await stack.stop();
  await rm(dataDir, { recursive: true, force: true });
}
