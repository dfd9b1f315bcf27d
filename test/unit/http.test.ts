import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { route } from '../../functions/lib/http';
import { NotFoundError } from '../../functions/lib/errors';

const event = (over: Partial<APIGatewayProxyEventV2> = {}) =>
  ({ requestContext: { http: { sourceIp: '1.2.3.4' } }, ...over }) as unknown as APIGatewayProxyEventV2;

describe('route wrapper', () => {
  it('maps a typed error to its status and Italian message', async () => {
    const h = route('health', {}, async () => {
      throw new NotFoundError('Immobile non trovato');
    });
    const res = await h(event());
    expect(res.statusCode).toBe(404);
    expect(JSON.parse(res.body!)).toEqual({ error: 'NOT_FOUND', message: 'Immobile non trovato' });
  });

  it('never leaks an internal error message or stack', async () => {
    const h = route('health', {}, async () => {
      throw new Error('ECONNREFUSED 10.0.0.1:8000 at Socket.connect');
    });
    const res = await h(event());
    expect(res.statusCode).toBe(500);
    expect(res.body).not.toMatch(/ECONNREFUSED|Socket|at /);
    expect(JSON.parse(res.body!).message).toBe('Si è verificato un errore. Riprova più tardi.');
  });

  it('validates the body with zod and answers 400 with the field messages', async () => {
    const body = z.object({ name: z.string().min(1, 'Inserisci un nome per la fonte') });
    const h = route('health', { body }, async ({ body }) => ({ ok: body.name }));
    const bad = await h(event({ body: JSON.stringify({ name: '' }) }));
    expect(bad.statusCode).toBe(400);
    expect(JSON.parse(bad.body!)).toMatchObject({ message: 'Inserisci un nome per la fonte', fields: { name: 'Inserisci un nome per la fonte' } });
    const notJson = await h(event({ body: '{oops' }));
    expect(notJson.statusCode).toBe(400);
    const good = await h(event({ body: JSON.stringify({ name: 'Portale' }) }));
    expect(JSON.parse(good.body!)).toEqual({ ok: 'Portale' });
  });

  it('refuses a caller without a token on a non-public route, and a caller in the wrong group', async () => {
    const h = route('claimInvitation', {}, async () => ({}));
    expect((await h(event())).statusCode).toBe(401);
    const agent = event({
      requestContext: { authorizer: { jwt: { claims: { sub: 'u', 'cognito:groups': '[agent]' } } } },
    } as unknown as Partial<APIGatewayProxyEventV2>);
    expect((await h(agent)).statusCode).toBe(403);
  });
});

describe('client IP', () => {
  it('uses the viewer IP CloudFront passes, else the source IP', async () => {
    const { clientIp } = await import('../../functions/lib/http');
    expect(clientIp(event({ headers: { 'x-viewer-ip': '93.41.2.7' } }))).toBe('93.41.2.7');
    expect(clientIp(event({ headers: { 'x-viewer-ip': 'not an ip; drop table' } }))).toBe('1.2.3.4');
    expect(clientIp(event())).toBe('1.2.3.4');
  });
});
