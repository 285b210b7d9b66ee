// The return from sign-in by OIDC (decisions 0146, 0147): the server's callback sends the browser to
// `/auth/oidc#...` with the app's session (`access_token`), a link request (`link` + `email`) or why it was
// refused (`error`, `code`, `reason`); back from a deletion confirmed there (decision 0158), `deleted=1` or
// `delete_refused=<reason>`. At startup, before any view is chosen, the fragment is read and the
// address becomes the sign-in's (`/auth`, with a replace, so a reload or Back never holds the token); the
// auth view then finishes what it says. Kept in memory only: a token never reaches storage until it is a
// session, as a password sign-in's is.
//
// Part of the landing page's first chunk (the auth provider calls the capture): no API code and no zod here.

/** Where the server's callback sends the browser (server/src/oidc/routes.ts). */
export const OIDC_LANDING_PATH = "/auth/oidc";
/** Where the server starts a sign-in at the provider (a redirect). */
export const OIDC_START_PATH = "/api/auth/oidc/start";
/** Where the address goes once the fragment is read: the auth view's. */
const AUTH_PATH = "/auth";
/** Where a refused deletion goes back to: the account page, whose dialog began it. */
const ACCOUNT_PATH = "/subscription";

export type OidcReturn =
  /** Signed in: the app's own session, to be checked and stored. */
  | { kind: "session"; accessToken: string }
  /** An account with the provider's address exists: its password links it (one time). */
  | { kind: "link"; token: string; email: string }
  /** Refused: `reason` and `code` pick the app's own words; the fragment's text is never shown. */
  | { kind: "refused"; reason: string | null; code: string | null }
  /** The account was deleted, confirmed by a fresh sign-in at the provider: this browser forgets it. */
  | { kind: "deleted" }
  /** A deletion confirmed at the provider was refused (nothing deleted): `reason` picks the app's words. */
  | { kind: "delete_refused"; reason: string };

/** What a landing fragment says (an empty or broken one is a refusal without a reason). */
export function parseOidcFragment(hash: string): OidcReturn {
  const params = new URLSearchParams(hash.startsWith("#") ? hash.slice(1) : hash);
  if (params.get("deleted") === "1") return { kind: "deleted" };
  const deleteRefused = params.get("delete_refused");
  if (deleteRefused !== null) return { kind: "delete_refused", reason: deleteRefused };
  const accessToken = params.get("access_token");
  if (accessToken) return { kind: "session", accessToken };
  const token = params.get("link");
  const email = params.get("email");
  if (token && email) return { kind: "link", token, email };
  return { kind: "refused", reason: params.get("reason"), code: params.get("code") };
}

export function isOidcLanding(pathname: string): boolean {
  return pathname.replace(/\/+$/, "").toLowerCase() === OIDC_LANDING_PATH;
}

type Where = Pick<Location, "pathname" | "hash">;
type History = Pick<typeof window.history, "state" | "replaceState">;

// The return waiting for the auth view: captured once per page load, cleared once handled.
let captured: OidcReturn | null | undefined;

/**
 * Run once at startup, before the view is chosen: on the landing path, keeps what its fragment says and puts
 * the sign-in's address in the address bar (the fragment gone). Later calls answer the same.
 */
export function captureOidcReturn(
  where: Where = window.location,
  history: History = window.history,
): OidcReturn | null {
  if (captured !== undefined) return captured;
  if (!isOidcLanding(where.pathname)) {
    captured = null;
    return captured;
  }
  captured = parseOidcFragment(where.hash);
  history.replaceState(history.state, "", captured.kind === "delete_refused" ? ACCOUNT_PATH : AUTH_PATH);
  return captured;
}

/** The return the auth view still has to finish, if any. */
export function pendingOidcReturn(): OidcReturn | null {
  return captured ?? null;
}

/** The return is finished (signed in, linked, cancelled or its refusal shown). */
export function clearOidcReturn(): void {
  captured = null;
}

/** For tests: forget that the startup capture ran. */
export function resetOidcCaptureForTests(): void {
  captured = undefined;
}
