import type { ErrorBody } from '#contract/errors';

/**
 * A non-success HTTP answer. `message` follows SPEC §8 ("<status>: <body text
 * or status text>"); `userMessage` is the server's pt-BR `message` field when
 * the body is the JSON error envelope, and is what toasts show.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string | undefined;
  readonly userMessage: string | undefined;
  readonly fieldErrors: Record<string, string> | undefined;

  constructor(status: number, statusText: string, bodyText: string) {
    super(`${status}: ${bodyText || statusText}`);
    this.name = 'ApiError';
    this.status = status;
    const body = parseErrorBody(bodyText);
    this.code = body?.code;
    this.userMessage = body?.message;
    this.fieldErrors = body?.fieldErrors;
  }
}

function parseErrorBody(text: string): Partial<ErrorBody> | undefined {
  if (!text) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    if (value && typeof value === 'object') return value as Partial<ErrorBody>;
  } catch {
    // Not JSON (a proxy page, plain text): only the generic message applies.
  }
  return undefined;
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

/** The text a toast should show for a failed call: the server's message, else the fallback. */
export function errorMessage(error: unknown, fallback: string): string {
  return (isApiError(error) && error.userMessage) || fallback;
}

type SessionEndListener = (info: { path: string; status: number; code: string | undefined }) => void;
let onSessionEnd: SessionEndListener | undefined;

/**
 * Registers who hears that the server no longer accepts the session (401, or
 * 403 DEMO_EXPIRED) on any call but login. The app's providers set it once.
 */
export function setSessionEndListener(listener: SessionEndListener | undefined): void {
  onSessionEnd = listener;
}

const LOGIN_PATH = '/api/auth/login';

export interface RequestOptions {
  signal?: AbortSignal;
}

/** Sends one call to the API. Always with the session cookie; bodies are JSON. */
export async function apiRequest<T>(
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  path: string,
  body?: unknown,
  options: RequestOptions = {},
): Promise<T> {
  const hasBody = body !== undefined;
  const response = await fetch(path, {
    method,
    credentials: 'include',
    headers: hasBody
      ? { 'Content-Type': 'application/json', Accept: 'application/json' }
      : { Accept: 'application/json' },
    body: hasBody ? JSON.stringify(body) : undefined,
    signal: options.signal,
  });

  if (!response.ok) {
    const text = await response.text().catch(() => '');
    const error = new ApiError(response.status, response.statusText, text);
    const sessionEnded = response.status === 401 || (response.status === 403 && error.code === 'DEMO_EXPIRED');
    if (sessionEnded && path !== LOGIN_PATH) onSessionEnd?.({ path, status: response.status, code: error.code });
    throw error;
  }

  if (response.status === 204) return undefined as T;
  const text = await response.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

export const api = {
  get: <T>(path: string, options?: RequestOptions) => apiRequest<T>('GET', path, undefined, options),
  post: <T>(path: string, body?: unknown, options?: RequestOptions) => apiRequest<T>('POST', path, body, options),
  put: <T>(path: string, body?: unknown, options?: RequestOptions) => apiRequest<T>('PUT', path, body, options),
  patch: <T>(path: string, body?: unknown, options?: RequestOptions) => apiRequest<T>('PATCH', path, body, options),
  delete: <T>(path: string, options?: RequestOptions) => apiRequest<T>('DELETE', path, undefined, options),
};

/** GET that answers `null` on 401 instead of throwing (SPEC §7 default data fetching). */
export async function getOrNull<T>(path: string, options?: RequestOptions): Promise<T | null> {
  try {
    return await api.get<T>(path, options);
  } catch (error) {
    if (isApiError(error) && error.status === 401) return null;
    throw error;
  }
}
