import { expect } from 'vitest';
import { multipart } from './multipart';
import type { ApiAnswer, HttpSession } from './raw-http';

/**
 * Signs in over a real socket as the browser does (same origin, JSON body); answers the session,
 * for `apiFetch` and the campaign helpers of raw-http.ts.
 */
export async function signIn(base: string, credentials: { username: string; password: string }): Promise<HttpSession> {
  const login = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: base },
    body: JSON.stringify(credentials),
  });
  expect(login.status).toBe(200);
  return { base, cookie: (login.headers.get('set-cookie') ?? '').split(';')[0] };
}

/** One file sent as the browser's form upload does (`multipart/form-data`, field `file`). */
export async function apiUpload(
  s: HttpSession,
  path: string,
  file: { name: string; data: Buffer | string },
): Promise<ApiAnswer> {
  const form = multipart(file.name, file.data);
  const res = await fetch(`${s.base}${path}`, {
    method: 'POST',
    headers: { cookie: s.cookie, origin: s.base, ...form.headers },
    body: form.payload,
  });
  const text = await res.text();
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = null;
  }
  return { status: res.status, text, body };
}
