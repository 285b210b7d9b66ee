// The return from the payment page: both providers send the
// browser back to `/?payment=success&type=credits&session_id=cs_...&nav=manage-subscription`, or
// `/?payment=cancelled&nav=manage-subscription`; the billing portal returns with `?nav=manage-subscription`.
//
// At startup, before any view is chosen, the query string is taken out of the address bar (which then
// names the Credits page, so a reload never verifies twice) and kept for this tab; the signed-in shell
// hands it to usePaymentReturn, which opens the Credits page and verifies, right away for a signed-in
// user or right after login for one who has to sign in first.
//
// Part of the landing page's first chunk (the auth provider calls the capture): no API code and no zod
// here, so the two constants below mirror @storyverse/contract/billing (a unit test keeps them equal).

import { clearPaymentReturnQuery, readPaymentReturnQuery, writePaymentReturnQuery } from "../../lib/storage";
import { pathForView } from "../../shared/navigation";

/** CHECKOUT_SESSION_PREFIX in the contract. */
export const CHECKOUT_SESSION_PREFIX = "cs_";
/** PAYMENT_RETURN_NAV in the contract. */
export const PAYMENT_RETURN_NAV = "manage-subscription";

/** The query parameters the return carries; every other parameter is left alone. */
export const PAYMENT_RETURN_PARAMS = ["payment", "type", "session_id", "nav"] as const;

export type PaymentReturn =
  /** Paid (as far as the address says): verify the session, then show what it added. */
  | { kind: "success"; sessionId: string; type: string }
  /** payment=success without a checkout session id that starts with cs_: nothing to verify. */
  | { kind: "invalid-session" }
  | { kind: "cancelled" }
  /** Only nav=manage-subscription (back from the billing portal): open the Credits page. */
  | { kind: "open" };

/** A checkout session id as both providers make them (the server checks the same pattern). */
export function isCheckoutSessionId(value: string | null | undefined): value is string {
  return (
    typeof value === "string" &&
    value.length <= 255 &&
    value.startsWith(CHECKOUT_SESSION_PREFIX) &&
    /^cs_[A-Za-z0-9_]+$/.test(value)
  );
}

/** The page was opened by the return from the payment page (it has a `payment` parameter). */
export function isReturningFromPayment(search: string): boolean {
  return new URLSearchParams(search).has("payment");
}

/** What a query string asks for, or null when it is not a payment return. */
export function parsePaymentReturn(search: string): PaymentReturn | null {
  const params = new URLSearchParams(search);
  const payment = params.get("payment");
  if (payment === "success") {
    const sessionId = params.get("session_id");
    if (!isCheckoutSessionId(sessionId)) return { kind: "invalid-session" };
    return { kind: "success", sessionId, type: params.get("type") || "credits" };
  }
  if (payment === "cancelled" || payment === "canceled") return { kind: "cancelled" };
  if (payment !== null || params.get("nav") === PAYMENT_RETURN_NAV) return { kind: "open" };
  return null;
}

/** The query string without the payment return's parameters: "" or "?other=1". */
export function stripPaymentReturnParams(search: string): string {
  const params = new URLSearchParams(search);
  for (const name of PAYMENT_RETURN_PARAMS) params.delete(name);
  const rest = params.toString();
  return rest === "" ? "" : `?${rest}`;
}

// The return waiting for the signed-in shell. Kept in memory as well as in session storage, so it is
// handled even where storage is unavailable (as long as the page is not reloaded).
let pending: string | null = null;
let captured: boolean | undefined;

type Where = Pick<Location, "search" | "hash">;
type History = Pick<typeof window.history, "state" | "replaceState">;

/**
 * Run once at startup, before the view is chosen: keeps a payment return for the signed-in shell, puts the
 * Credits page's address in the address bar without the return's parameters, and tells whether the page
 * was opened by the return from the payment page (then a failed session check does not log out with
 * 'Session expired').
 * Later calls return the first answer.
 */
export function captureStartupPaymentReturn(
  location: Where = window.location,
  history: History = window.history,
): boolean {
  if (captured !== undefined) return captured;
  captured = isReturningFromPayment(location.search);
  if (parsePaymentReturn(location.search) !== null) {
    pending = location.search;
    writePaymentReturnQuery(location.search);
    const url = `${pathForView("subscription")}${stripPaymentReturnParams(location.search)}${location.hash}`;
    history.replaceState(history.state, "", url);
  }
  return captured;
}

/** The waiting payment return, now taken: it is handled once. */
export function takePendingPaymentReturn(): PaymentReturn | null {
  const query = pending ?? readPaymentReturnQuery();
  pending = null;
  clearPaymentReturnQuery();
  return query === null ? null : parsePaymentReturn(query);
}

/** Put a return back for the next sign-in (its verification was refused because the session had ended). */
export function restorePendingPaymentReturn(sessionId: string, type: string): void {
  const query = `?${new URLSearchParams({ payment: "success", type, session_id: sessionId, nav: PAYMENT_RETURN_NAV })}`;
  pending = query;
  writePaymentReturnQuery(query);
}

/** Tests only: a fresh page load (`keepTab`: a reload, which keeps the tab's session storage). */
export function resetPaymentReturnForTests({ keepTab = false }: { keepTab?: boolean } = {}): void {
  pending = null;
  captured = undefined;
  if (!keepTab) clearPaymentReturnQuery();
}
