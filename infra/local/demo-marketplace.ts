/**
 * Demo data of `npm start` for the agent area: two purchase options listed to agents, so the
 * demo agent opens 'Opzioni Disponibili' on something real (one in Milano with photos of
 * three rooms, one in Monza with one photo: the province filter has a choice). Through the
 * product's own routes, as a person would: room photos uploaded with the wizard's presigned
 * POST, the request submitted with POST /properties, the option created by the demo admin.
 * One shortcut, marked as such: the seller side (identity verified, a delegation signed) is
 * written directly, since it needs a face photo and signed PDFs.
 * Idempotent: fixed draft ids; each step runs only when its data is missing.
 */
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { optionExpiryDate } from '../../functions/domain/fees';
import { ddb } from '../../functions/model/db';
import { keys } from '../../functions/model/keys';
import { encodePng } from '../../test/support/png';
import type { LocalStack } from './stack';

type Call = <T>(method: string, route: string, body?: unknown, token?: string) => Promise<{ status: number; body: T }>;
type Rgb = [number, number, number];

interface DemoRoom {
  id: string;
  type: 'soggiorno' | 'cucina' | 'camera_da_letto';
  palette: { wall: Rgb; floor: Rgb; furniture: Rgb };
}

const DEMO_OPTIONS = [
  {
    propertyDraftId: '0d3e7b52-5a4f-4c1e-9d7a-6f1c2b3a4d11',
    address: 'Corso Buenos Aires 45',
    city: 'Milano',
    province: 'MI',
    surfaceArea: 110,
    numRooms: 4,
    floor: '4',
    features: ['ascensore', 'balcone', 'doppi_vetri', 'porta_blindata', 'riscaldamento_centralizzato'],
    propertyValue: 480_000,
    rooms: [
      { id: '0d3e7b52-5a4f-4c1e-9d7a-6f1c2b3a4e11', type: 'soggiorno', palette: { wall: [236, 228, 214], floor: [160, 120, 84], furniture: [34, 61, 115] } },
      { id: '0d3e7b52-5a4f-4c1e-9d7a-6f1c2b3a4e12', type: 'cucina', palette: { wall: [222, 234, 240], floor: [120, 120, 126], furniture: [255, 102, 3] } },
      { id: '0d3e7b52-5a4f-4c1e-9d7a-6f1c2b3a4e13', type: 'camera_da_letto', palette: { wall: [240, 226, 230], floor: [176, 140, 100], furniture: [90, 110, 90] } },
    ] satisfies DemoRoom[],
  },
  {
    propertyDraftId: '0d3e7b52-5a4f-4c1e-9d7a-6f1c2b3a4d12',
    address: 'Via Italia 10',
    city: 'Monza',
    province: 'MB',
    surfaceArea: 75,
    numRooms: 3,
    floor: '1',
    features: ['cantina', 'posto_auto'],
    propertyValue: 260_000,
    rooms: [
      { id: '0d3e7b52-5a4f-4c1e-9d7a-6f1c2b3a4e21', type: 'soggiorno', palette: { wall: [230, 232, 222], floor: [150, 110, 80], furniture: [120, 60, 40] } },
    ] satisfies DemoRoom[],
  },
] as const;

/** A 480 x 300 drawing of a room (wall, floor, window, a piece of furniture): a real PNG. */
function roomPicture({ wall, floor, furniture }: DemoRoom['palette']): Buffer {
  const width = 480;
  const height = 300;
  const rows: Buffer[] = [];
  for (let y = 0; y < height; y++) {
    const row = Buffer.alloc(1 + width * 3);
    for (let x = 0; x < width; x++) {
      let c: Rgb = y > 210 ? floor : wall;
      if (x > 300 && x < 420 && y > 40 && y < 150) c = x % 60 < 4 || y === 95 ? [250, 250, 250] : [170, 205, 235]; // window
      if (x > 60 && x < 260 && y > 150 && y < 235) c = furniture;
      const shade = y > 210 ? 1 - (y - 210) / 400 : 1;
      row.set(c.map((v) => Math.round(v * shade)), 1 + x * 3);
    }
    rows.push(row);
  }
  return encodePng(width, height, Buffer.concat(rows));
}

async function uploadPhoto(call: Call, draftId: string, room: DemoRoom): Promise<string> {
  const bytes = roomPicture(room.palette);
  const fileName = `${room.type}.png`;
  const form = await call<{ key: string; url: string; fields: Record<string, string> }>('POST', '/uploads', {
    propertyDraftId: draftId,
    roomId: room.id,
    fileName,
    contentType: 'image/png',
    size: bytes.length,
  });
  if (form.status !== 200) throw new Error(`foto demo: ${form.status} ${JSON.stringify(form.body)}`);
  const fd = new FormData();
  for (const [k, v] of Object.entries(form.body.fields)) fd.append(k, v);
  fd.append('file', new Blob([new Uint8Array(bytes)], { type: 'image/png' }), fileName);
  const sent = await fetch(form.body.url, { method: 'POST', body: fd });
  await sent.text();
  if (sent.status >= 300) throw new Error(`foto demo nel bucket: ${sent.status}`);
  return form.body.key;
}

export async function seedDemoMarketplace(stack: LocalStack, call: Call, adminToken: string, log: (line: string) => void): Promise<void> {
  const TABLE = stack.env.TABLE_NAME!;
  let listed = 0;
  for (const demo of DEMO_OPTIONS) {
    const id = demo.propertyDraftId;
    const existing = (await ddb().send(new GetCommand({ TableName: TABLE, Key: keys.option(id) }))).Item;
    if (existing) {
      // data seeded before the lifecycle: signed and published now, like a new seed
      if (existing.status === 'created' || existing.status === 'sent') {
        await publishDemoOption(TABLE, id, call, adminToken);
        listed++;
      }
      continue;
    }
    if (!(await ddb().send(new GetCommand({ TableName: TABLE, Key: keys.property(id) }))).Item) {
      const rooms = [];
      for (const room of demo.rooms) rooms.push({ id: room.id, type: room.type, media: [{ key: await uploadPhoto(call, id, room) }] });
      const res = await call('POST', '/properties', {
        propertyDraftId: id,
        website: '',
        address: demo.address,
        province: demo.province,
        city: demo.city,
        omiCategory: 'abitazioni_civili',
        propertyType: 'appartamento',
        desiredAmount: String(demo.propertyValue),
        surfaceArea: demo.surfaceArea,
        numRooms: demo.numRooms,
        numBathrooms: 2,
        floor: demo.floor,
        hasTerrace: false,
        numTerraces: null,
        terraceSurfaceArea: null,
        features: demo.features,
        condition: 'buono',
        hasExtraordinaryExpenses: 'no',
        hasAbuses: 'no',
        hasHypothecs: 'no',
        hasApe: 'no',
        rooms,
        firstName: 'Anna',
        lastName: 'Galli',
        email: 'anna.galli@example.it',
        phone: '+393481112233',
        privacyConsent: true,
      });
      if (res.status !== 200 && res.status !== 201) throw new Error(`richiesta demo ${demo.address}: ${res.status} ${JSON.stringify(res.body)}`);
    }
    // DEMO SHORTCUT: the seller side written directly (a real seller does it on /seller-kyc)
    const at = new Date().toISOString();
    await ddb().send(new PutCommand({ TableName: TABLE, Item: { ...keys.identity(id), entity: 'identity', propertyId: id, status: 'verified', fullName: 'Anna Galli', verifiedAt: at } }));
    await ddb().send(
      new PutCommand({
        TableName: TABLE,
        Item: { ...keys.delegation(id, 'catasto'), entity: 'delegation', propertyId: id, type: 'catasto', province: demo.province, municipality: demo.city, documentKey: `${id}/documents/delega-catasto-demo.pdf`, signedAt: at },
      }),
    );
    const option = await call(
      'POST',
      `/admin/properties/${id}/option`,
      { propertyValue: demo.propertyValue, hasKeys: true, agentCommissionPercentage: 5, minAgentCommissionPercentage: 2, salePricePercentage: 10, minMonthlySlots: 4 },
      adminToken,
    );
    if (option.status !== 201 && option.status !== 409) throw new Error(`opzione demo ${demo.address}: ${option.status} ${JSON.stringify(option.body)}`);
    await publishDemoOption(TABLE, id, call, adminToken);
    listed++;
  }
  if (listed) log(`dati demo: ${listed} opzioni di acquisto offerte agli agenti (Opzioni Disponibili dell'agente demo)`);
}

/**
 * DEMO SHORTCUT: the seller's signature written directly (the demo seller's own option in
 * demo-availability.ts is signed through the real routes), then published by the demo admin
 * through POST /admin/options/{id}/transitions, as an admin does on the Istruttoria page.
 */
async function publishDemoOption(TABLE: string, id: string, call: Call, adminToken: string): Promise<void> {
  const at = new Date().toISOString();
  await ddb().send(
    new UpdateCommand({
      TableName: TABLE,
      Key: keys.option(id),
      UpdateExpression: 'SET #s = :signed, signedAt = :at, signatureType = :fisica, expiresAt = :exp',
      ConditionExpression: '#s IN (:created, :sent)',
      ExpressionAttributeNames: { '#s': 'status' },
      ExpressionAttributeValues: { ':signed': 'signed', ':at': at, ':fisica': 'fisica', ':exp': optionExpiryDate(at, 12), ':created': 'created', ':sent': 'sent' },
    }),
  );
  await ddb().send(new UpdateCommand({ TableName: TABLE, Key: keys.property(id), UpdateExpression: 'SET optionSignedAt = :at, optionState = :signed', ExpressionAttributeValues: { ':at': at, ':signed': 'signed' } }));
  const published = await call('POST', `/admin/options/${id}/transitions`, { action: 'publish' }, adminToken);
  if (published.status !== 200) throw new Error(`pubblicazione opzione demo: ${published.status} ${JSON.stringify(published.body)}`);
}
