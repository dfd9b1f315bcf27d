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

/** THE fetch client: base `config.apiUrl`, bearer ID token when signed in, JSON in and out, ApiError on failure. */
export async function request<T>(method: Method, path: string, body?: unknown, options: RequestOptions = {}): Promise<T> {
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
