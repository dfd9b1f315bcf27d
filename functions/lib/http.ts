import { isIP } from 'node:net';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import * as z from 'zod';
import { callerFrom, SessionExpiredError, sessionProblem, type Caller } from './auth';
import { AppError, ForbiddenError, GENERIC_ERROR_MESSAGE, MfaRequiredError, UnauthorizedError, ValidationError } from './errors';
import { logger } from './logger';
import { instrument, outcomeOfStatus } from './observability';
import { fromEdge, VIEWER_IP_HEADER } from './origin';
import { isGenericIssueMessage, italianIssueMessage } from './validation-messages';
import { isAllowed, routeById, type Access, type RouteId, type routes } from '../routes';
import type { Group } from '../domain/roles';
// the one model/ module lib/ may import (eslint.config.js): whether the caller's token is still valid
import { sessionStateOf } from '../model/session';

type Schema = z.ZodType;
type Out<S> = S extends z.ZodType ? z.infer<S> : undefined;

/**
 * The caller a route's handler gets, by the manifest's access of the route: behind any access
 * but 'public' route() has refused a request without a caller, so it is always there; a
 * public route may have one (a signed-in user) or not.
 */
export type CallerOf<Id extends RouteId> = Extract<(typeof routes)[number], { id: Id }>['access'] extends 'public' ? Caller | undefined : Caller;

export interface RouteInput<B, Q, P, C extends Caller | undefined = Caller | undefined> {
  body: B;
  query: Q;
  params: P;
  caller: C;
  event: APIGatewayProxyEventV2;
  /** the caller's IP address, as API Gateway saw it */
  sourceIp: string;
}

export type ApiHandler = (event: APIGatewayProxyEventV2, context?: Context) => Promise<APIGatewayProxyStructuredResultV2>;

const JSON_HEADERS = {
  'content-type': 'application/json; charset=utf-8',
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
};

export function json(status: number, body: unknown): APIGatewayProxyStructuredResultV2 {
  return { statusCode: status, headers: JSON_HEADERS, body: body === undefined ? '' : JSON.stringify(body) };
}

/** The one error mapper: typed errors keep their Italian message; anything else is a generic 500. */
export function toResponse(err: unknown): APIGatewayProxyStructuredResultV2 {
  if (err instanceof AppError) {
    return json(err.status, { error: err.code, message: err.message, ...(err.details ?? {}) });
  }
  logger.error('Unhandled error', { error: err as Error });
  return json(500, { error: 'INTERNAL', message: GENERIC_ERROR_MESSAGE });
}

/**
 * zod issues -> one Italian message per field (the schemas carry Italian messages; a check
 * without one got a generic Italian message from parseWith). The answer's message is the
 * first schema's own message, else `fallback`.
 */
export function validationError(error: z.ZodError, fallback = 'Dati non validi'): ValidationError {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.join('.') || '_';
    fields[key] ??= ZOD_DEFAULT.test(issue.message) ? 'Valore non valido' : issue.message;
  }
  const own = error.issues.find((i) => !ZOD_DEFAULT.test(i.message) && !isGenericIssueMessage(i.message));
  return new ValidationError(own?.message ?? fallback, fields);
}

/** zod's English defaults (a schema parsed without italianIssueMessage) */
const ZOD_DEFAULT = /^(Invalid|Expected|Too (big|small)|Unrecognized)/;

/**
 * The caller's IP. Behind CloudFront, API Gateway's source IP is the edge's, so the web
 * stack's viewer-request function passes the viewer's in `x-viewer-ip`; that header is
 * believed only on a request that proved it came through the edge (functions/lib/origin.ts),
 * anyone else could write any address in it.
 */
export function clientIp(event: APIGatewayProxyEventV2, viaEdge: boolean): string {
  const viewer = viaEdge ? event.headers?.[VIEWER_IP_HEADER] : undefined;
  if (viewer && isIP(viewer)) return viewer;
  return event.requestContext?.http?.sourceIp ?? '';
}

function parseBody(event: APIGatewayProxyEventV2): unknown {
  if (!event.body) return undefined;
  const text = event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
  try {
    return JSON.parse(text);
  } catch {
    throw new ValidationError('Il corpo della richiesta non è un JSON valido');
  }
}

function parseWith<S extends Schema | undefined>(schema: S, value: unknown): Out<S> {
  if (!schema) return undefined as Out<S>;
  const result = schema.safeParse(value, { error: italianIssueMessage });
  if (!result.success) throw validationError(result.error);
  return result.data as Out<S>;
}

/**
 * Wraps a use case as an API Gateway HTTP API (v2) handler: refuses requests that did not
 * come through the edge (403, functions/lib/origin.ts), refuses a token the server no longer
 * accepts (401 SESSION_EXPIRED: issued before the user's valid-after instant, user gone, admin
 * token older than 15 minutes; lib/auth.ts sessionProblem), checks the manifest's access
 * rule for the route (the JWT authorizer only proves who the caller is), parses body,
 * query and path parameters with zod, and maps results and typed errors to responses.
 * The handler's `caller` is typed by the route's access (CallerOf). Every invocation is
 * counted once (lib/observability.ts): cold start, and its outcome by the answer's status.
 */
export function route<
  Id extends RouteId,
  BS extends Schema | undefined = undefined,
  QS extends Schema | undefined = undefined,
  PS extends Schema | undefined = undefined,
>(
  id: Id,
  schemas: { body?: BS; query?: QS; params?: PS },
  fn: (input: RouteInput<Out<BS>, Out<QS>, Out<PS>, CallerOf<Id>>) => Promise<unknown>,
  options: { successStatus?: number } = {},
): ApiHandler {
  const def = routeById(id);
  if (!def) throw new Error(`Route ${id} is not in the manifest`);
  const handle = async (event: APIGatewayProxyEventV2): Promise<APIGatewayProxyStructuredResultV2> => {
    try {
      // only requests through CloudFront: a direct call to execute-api gets nothing else
      if (!(await fromEdge(event))) throw new ForbiddenError();
      let caller = callerFrom(event);
      // the token proves who signed in and when; whether it still counts is the server's record
      if (caller && sessionProblem(caller, await sessionStateOf(caller.userId))) {
        if (def.access !== 'public') throw new SessionExpiredError();
        caller = undefined; // a public route serves it as anyone
      }
      if (def.access !== 'public') {
        if (!caller) throw new UnauthorizedError();
        if (!isAllowed(def.access, caller.groups)) throw new ForbiddenError();
        if (needsAdminMfa(def.access, caller.groups) && !caller.mfa) throw new MfaRequiredError();
      }
      const input = {
        body: parseWith(schemas.body, parseBody(event)),
        query: parseWith(schemas.query, event.queryStringParameters ?? {}),
        params: parseWith(schemas.params, event.pathParameters ?? {}),
        caller,
        event,
        sourceIp: clientIp(event, true),
      };
      // the parsers' outputs are the schemas' types; the caller is there unless the route is public (checked above)
      const result = await fn(input as RouteInput<Out<BS>, Out<QS>, Out<PS>, CallerOf<Id>>);
      return json(options.successStatus ?? (result === undefined ? 204 : 200), result);
    } catch (err) {
      return toResponse(err);
    }
  };
  return (event) => instrument(id, () => handle(event), (res) => outcomeOfStatus(res.statusCode ?? 200));
}

/**
 * True when the caller reaches the route only as an admin: admins need TOTP MFA (the token's
 * `mfa` claim, functions/auth/pre-token-generation.ts); a route also open to the caller's other
 * groups does not ask for it.
 */
export function needsAdminMfa(access: Access, groups: readonly Group[]): boolean {
  if (!Array.isArray(access) || !access.includes('admin') || !groups.includes('admin')) return false;
  return !access.some((g) => g !== 'admin' && groups.includes(g));
}
