// Reading one cookie from a request's Cookie header (the app sets only a few narrow, HttpOnly cookies: the
// OIDC state, the browser that signed up; sessions are bearer tokens, never cookies).

/** The value of cookie `name` in a Cookie header, or undefined. */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of header?.split(";") ?? []) {
    const [key, ...rest] = part.trim().split("=");
    if (key === name) return rest.join("=");
  }
  return undefined;
}
