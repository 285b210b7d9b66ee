// The browser that signed up (decision 0153): sign-up sets a narrow HttpOnly cookie naming the new account,
// sealed with the server's secret, and the verification link opened in that same browser signs it in. The
// browser already knows the password, so the link gives it nothing new; the link opened anywhere else (a
// phone's mail app, a leaked link) only verifies, and the sign-in opens with the address filled in (0022).
import { createHmac, timingSafeEqual } from "node:crypto";
import { VERIFY_LINK_TTL_HOURS } from "@storyverse/contract/accounts";
import { cookieValue } from "../http/cookies";

const COOKIE = "sv_signup";
/** Sent only with the verification call, never with anything else. */
const COOKIE_PATH = "/api/verify-email";
const LIFETIME_MS = VERIFY_LINK_TTL_HOURS * 60 * 60 * 1000;

const seal = (secret: string, userId: string, expiresAt: number) =>
  createHmac("sha256", secret).update(`signup-browser\n${userId}\n${expiresAt}`).digest("base64url");

const attributes = (secure: boolean, maxAgeSeconds: number) =>
  `Path=${COOKIE_PATH}; HttpOnly; SameSite=Lax; Max-Age=${maxAgeSeconds}${secure ? "; Secure" : ""}`;

/** The Set-Cookie value that marks this browser as the one that signed `userId` up, for as long as its link lives. */
export function signupBrowserCookie(secret: string, userId: string, now: Date, secure: boolean): string {
  const expiresAt = now.getTime() + LIFETIME_MS;
  const value = `${userId}.${expiresAt}.${seal(secret, userId, expiresAt)}`;
  return `${COOKIE}=${value}; ${attributes(secure, LIFETIME_MS / 1000)}`;
}

/** The Set-Cookie value that forgets the mark (once the link has been used here). */
export function clearedSignupBrowserCookie(secure: boolean): string {
  return `${COOKIE}=; ${attributes(secure, 0)}`;
}

/** Whether the request comes from the browser that signed `userId` up, within the link's lifetime. */
export function signedUpHere(
  secret: string,
  cookieHeader: string | undefined,
  userId: string,
  now: Date,
): boolean {
  const [id, expires, mac] = (cookieValue(cookieHeader, COOKIE) ?? "").split(".");
  if (!id || !expires || !mac || id !== userId) return false;
  const expiresAt = Number(expires);
  if (!Number.isSafeInteger(expiresAt) || expiresAt <= now.getTime()) return false;
  const expected = Buffer.from(seal(secret, userId, expiresAt));
  const given = Buffer.from(mac);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
