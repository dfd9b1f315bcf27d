import { SESSION_EXPIRED_CODE } from '@domain/roles';
import { auth } from './amplify';
import { getConfig } from './config';

export const NETWORK_ERROR_MESSAGE = 'Impossibile contattare il server. Verifica la connessione e riprova.';
export const GENERIC_ERROR_MESSAGE = 'Si è verificato un errore. Riprova più tardi.';

/** An API failure carrying the HTTP status and the server's Italian message (`{ error, message, fields? }`). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code?: string,
    readonly fields?: Record<string, string>,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export function isApiError(err: unknown, status?: number): err is ApiError {
  return err instanceof ApiError && (status === undefined || err.status === status);
}

/** The Italian message to show for any error (API, Cognito, or unexpected). */
export function errorMessage(err: unknown): string {
  if (err instanceof Error && err.message) return err.message;
  return GENERIC_ERROR_MESSAGE;
}

async function idToken(): Promise<string | undefined> {
  try {
    const session = await (await auth()).fetchAuthSession();
    return session.tokens?.idToken?.toString();
  } catch {
    return undefined;
  }
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RequestOptions {
  query?: Record<string, string | number | boolean | null | undefined>;
  signal?: AbortSignal;
  headers?: Record<string, string>;
}

function buildUrl(path: string, query?: RequestOptions['query']): string {
  const base = getConfig().apiUrl.replace(/\/+$/, '');
  const url = `${base}${path.startsWith('/') ? path : `/${path}`}`;
  if (!query) return url;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  }
  const qs = params.toString();
  return qs ? `${url}?${qs}` : url;
}

/** sessionStorage key: the sign-in page tells the user their session ended (features/auth/AuthPage.tsx). */
export const SESSION_ENDED_KEY = 'opzione-casa:session-ended';

let refreshing: Promise<boolean> | null = null;

/**
 * New tokens from Cognito with the refresh token (the server refused the ID token: a role
 * change, an approval, an admin token older than 15 minutes). One refresh at a time for every
 * request that hit the refusal together; false when Cognito refuses (signed out everywhere,
 * account deleted).
 */
export function refreshTokens(): Promise<boolean> {
  refreshing ??= (async () => {
    try {
      const session = await (await auth()).fetchAuthSession({ forceRefresh: true });
      return Boolean(session.tokens?.idToken);
    } catch {
      return false;
    } finally {
      refreshing = null;
    }
  })();
  return refreshing;
}

/** The session is over for good: sign out here too and go to the sign-in page, which says why. */
async function endSession(): Promise<void> {
  try {
    await (await auth()).signOut();
  } catch {
    // already signed out
  }
  try {
    sessionStorage.setItem(SESSION_ENDED_KEY, '1');
  } catch {
    // storage unavailable: the page just opens without the notice
  }
  window.location.assign('/auth');
}

/**
 * THE fetch client: base `config.apiUrl`, bearer ID token when signed in, JSON in and out,
 * ApiError on failure. On 401 SESSION_EXPIRED it refreshes the tokens once and retries; if
 * the refresh fails, or the new token is refused too, it signs out and opens /auth.
 */
export async function request<T>(method: Method, path: string, body?: unknown, options: RequestOptions = {}): Promise<T> {
  try {
    return await send<T>(method, path, body, options);
  } catch (err) {
    if (!(err instanceof ApiError) || err.status !== 401 || err.code !== SESSION_EXPIRED_CODE) throw err;
    if (await refreshTokens()) {
      try {
        return await send<T>(method, path, body, options);
      } catch (again) {
        if (!(again instanceof ApiError) || again.status !== 401 || again.code !== SESSION_EXPIRED_CODE) throw again;
      }
    }
    await endSession();
    throw err;
  }
}

async function send<T>(method: Method, path: string, body: unknown, options: RequestOptions): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
  const token = await idToken();
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';

  let res: Response;
  try {
    res = await fetch(buildUrl(path, options.query), {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: options.signal,
    });
  } catch (err) {
    if ((err as Error).name === 'AbortError') throw err;
    throw new ApiError(0, NETWORK_ERROR_MESSAGE, 'NETWORK');
  }

  const text = await res.text();
  let data: unknown = undefined;
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = undefined;
    }
  }
  if (!res.ok) {
    const payload = (data ?? {}) as { error?: unknown; message?: unknown; fields?: unknown };
    const message = typeof payload.message === 'string' && payload.message ? payload.message : GENERIC_ERROR_MESSAGE;
    const code = typeof payload.error === 'string' ? payload.error : undefined;
    const fields = payload.fields && typeof payload.fields === 'object' ? (payload.fields as Record<string, string>) : undefined;
    throw new ApiError(res.status, message, code, fields);
  }
  return data as T;
}

export const api = {
  get: <T>(path: string, options?: RequestOptions) => request<T>('GET', path, undefined, options),
  post: <T>(path: string, body?: unknown, options?: RequestOptions) => request<T>('POST', path, body ?? {}, options),
  put: <T>(path: string, body?: unknown, options?: RequestOptions) => request<T>('PUT', path, body ?? {}, options),
  patch: <T>(path: string, body?: unknown, options?: RequestOptions) => request<T>('PATCH', path, body ?? {}, options),
  delete: <T>(path: string, options?: RequestOptions) => request<T>('DELETE', path, undefined, options),
};
