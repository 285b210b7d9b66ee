// The sandbox's HTML: the checkout page (pack, price, credits, Pay and Cancel as plain forms), the portal
// page and error pages, plus their stylesheet. The app's CSP allows no inline script or style, so the pages
// have no script at all and take their look from /sandbox/checkout.css. Every dynamic value is escaped.
import { type CreditPack, findPack, PAYMENT_CANCELLED_MESSAGE } from "@storyverse/contract/billing";
import type { PaymentSessionRow } from "./repo";

export const SANDBOX_NOTICE = "Sandbox — no card is charged";
export const SANDBOX_CSS_PATH = "/sandbox/checkout.css";

const escapeHtml = (value: string) =>
  value.replace(
    /[&<>"']/g,
    (char) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[char]!,
  );

const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`;

function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)} · Storyverse sandbox</title>
<link rel="stylesheet" href="${SANDBOX_CSS_PATH}">
</head>
<body>
<main class="card">
<p class="notice" role="note">${SANDBOX_NOTICE}</p>
${body}
</main>
</body>
</html>
`;
}

export function renderCheckoutPage(input: {
  session: PaymentSessionRow;
  pack: CreditPack | undefined;
  successUrl: string;
  cancelUrl: string;
}): string {
  const { session, pack } = input;
  const name = pack?.name ?? "Credit pack";
  const price = dollars(session.amountCents);
  const bonus = pack && pack.bonus_credits > 0 ? ` (includes ${pack.bonus_credits} bonus)` : "";
  const summary = `<h1>${escapeHtml(name)}</h1>
<dl class="summary">
<div><dt>Price</dt><dd>${price}</dd></div>
<div><dt>Credits</dt><dd>${session.credits} credits${bonus}</dd></div>
<div><dt>Expires</dt><dd>Never (one-time purchase)</dd></div>
</dl>`;
  const base = `/sandbox/checkout/${encodeURIComponent(session.id)}`;

  if (session.status === "paid") {
    return layout(
      name,
      `${summary}
<p class="state paid">This checkout is paid: the credits are on your account.</p>
<p><a class="button" href="${escapeHtml(input.successUrl)}">Return to Storyverse</a></p>`,
    );
  }
  if (session.status !== "open") {
    return layout(
      name,
      `${summary}
<p class="state">${escapeHtml(PAYMENT_CANCELLED_MESSAGE)}</p>
<p><a class="button" href="${escapeHtml(input.cancelUrl)}">Return to Storyverse</a></p>`,
    );
  }
  return layout(
    `Pay ${name}`,
    `${summary}
<p class="explain">This is Storyverse's local sandbox checkout. Paying here adds the credits to your account
without charging any card; a production server takes payment through Stripe instead.</p>
<form method="post" action="${base}/pay">
<button type="submit" class="button pay">Pay ${price}</button>
</form>
<form method="post" action="${base}/cancel">
<button type="submit" class="button secondary">Cancel and return to Storyverse</button>
</form>`,
  );
}

export function renderPortalPage(input: { sessions: PaymentSessionRow[]; returnUrl: string }): string {
  const rows = input.sessions
    .map(
      (session) => `<tr>
<td>${escapeHtml(session.createdAt.toISOString().slice(0, 10))}</td>
<td>${escapeHtml(findPack(session.packId)?.name ?? session.packId)}</td>
<td>${session.credits}</td>
<td>${dollars(session.amountCents)}</td>
<td>${escapeHtml(session.status)}</td>
</tr>`,
    )
    .join("\n");
  const table =
    input.sessions.length === 0
      ? `<p class="state">No sandbox purchases yet.</p>`
      : `<table>
<thead><tr><th>Date</th><th>Pack</th><th>Credits</th><th>Price</th><th>Status</th></tr></thead>
<tbody>
${rows}
</tbody>
</table>`;
  return layout(
    "Billing",
    `<h1>Billing</h1>
<p class="explain">Your purchases in the sandbox. Nothing here was charged; with Stripe this is where invoices
and payment methods live.</p>
${table}
<p><a class="button" href="${escapeHtml(input.returnUrl)}">Return to Storyverse</a></p>`,
  );
}

export function renderErrorPage(status: number, detail: string): string {
  return layout(
    "Checkout unavailable",
    `<h1>${status === 404 ? "Checkout not found" : "Checkout unavailable"}</h1>
<p class="state">${escapeHtml(detail)}</p>`,
  );
}

/** The app's font stack (web/src/index.css, --font-sans), so the page reads as part of the product. */
export const APP_FONT_STACK =
  '"Inter Variable", ui-sans-serif, system-ui, -apple-system, "Segoe UI", sans-serif';

/** The app's bundled Inter files (their hashed names from the web build), latin and latin-ext. */
export interface SandboxFonts {
  latin: string | null;
  latinExt: string | null;
}

const LATIN_EXT_RANGE =
  "U+0100-02BA, U+02BD-02C5, U+02C7-02CC, U+02CE-02D7, U+02DD-02FF, U+0304, U+0308, U+0329, U+1D00-1DBF, " +
  "U+1E00-1E9F, U+1EF2-1EFF, U+2020, U+20A0-20AB, U+20AD-20C0, U+2113, U+2C60-2C7F, U+A720-A7FF";
const LATIN_RANGE =
  "U+0000-00FF, U+0131, U+0152-0153, U+02BB-02BC, U+02C6, U+02DA, U+02DC, U+0304, U+0308, U+0329, U+2000-206F, " +
  "U+20AC, U+2122, U+2191, U+2193, U+2212, U+2215, U+FEFF, U+FFFD";

function fontFace(url: string, range: string): string {
  return `@font-face { font-family: "Inter Variable"; font-style: normal; font-display: swap; font-weight: 100 900;
  src: url(${JSON.stringify(url)}) format("woff2-variations"); unicode-range: ${range}; }
`;
}

/**
 * The pages' stylesheet: the app's font and palette (the same semantic colours as web/src/index.css, light
 * and dark by the system's preference, since a page without script cannot read the app's stored theme),
 * and the app's primary gradient on Pay. Without a web build the font falls back along the same stack.
 */
export function sandboxCss(fonts: SandboxFonts): string {
  const faces =
    (fonts.latinExt ? fontFace(fonts.latinExt, LATIN_EXT_RANGE) : "") +
    (fonts.latin ? fontFace(fonts.latin, LATIN_RANGE) : "");
  return `${faces}:root {
  --sv-canvas: #f7f6fb; --sv-surface: #ffffff; --sv-surface-2: #f0eef8; --sv-line: #e3e0ee;
  --sv-ink: #15121f; --sv-ink-muted: #514b69; --sv-accent-ink: #6d28d9; --sv-focus: #7c3aed;
  --sv-focus-on-accent: #15121f; --sv-success: #047857;
  --sv-shadow: 0 2px 4px rgb(20 12 48 / 0.06), 0 32px 64px -24px rgb(40 20 90 / 0.35);
  color-scheme: light; font-family: ${APP_FONT_STACK};
  -webkit-font-smoothing: antialiased; -moz-osx-font-smoothing: grayscale;
}
@media (prefers-color-scheme: dark) {
  :root {
    --sv-canvas: #07060d; --sv-surface: #0f0d18; --sv-surface-2: #171424; --sv-line: #262238;
    --sv-ink: #f4f2fb; --sv-ink-muted: #aaa4c0; --sv-accent-ink: #c4b5fd; --sv-focus: #a78bfa;
    --sv-focus-on-accent: #ffffff; --sv-success: #6ee7b7;
    --sv-shadow: 0 2px 4px rgb(0 0 0 / 0.4), 0 40px 80px -24px rgb(76 29 149 / 0.45);
    color-scheme: dark;
  }
}
body { margin: 0; min-height: 100vh; display: grid; place-items: center; padding: 24px; box-sizing: border-box;
  background: var(--sv-canvas); color: var(--sv-ink); }
.card { width: 100%; max-width: 440px; box-sizing: border-box; background: var(--sv-surface);
  border: 1px solid var(--sv-line); border-radius: 24px; padding: 32px; box-shadow: var(--sv-shadow); }
.notice { margin: 0 0 24px; padding: 8px 12px; border-radius: 12px; background: #fbbf24; color: #1a1300;
  font-weight: 700; font-size: 0.875rem; text-align: center; }
h1 { margin: 0 0 16px; font-size: 1.5rem; font-weight: 700; letter-spacing: -0.01em; }
.summary { margin: 0 0 24px; padding: 16px; display: grid; gap: 8px; border-radius: 16px;
  background: var(--sv-surface-2); }
.summary div { display: flex; justify-content: space-between; gap: 16px; }
.summary dt { color: var(--sv-ink-muted); }
.summary dd { margin: 0; font-weight: 600; }
.explain, .state { color: var(--sv-ink-muted); line-height: 1.5; font-size: 0.9375rem; }
.state.paid { color: var(--sv-success); }
form { margin: 0 0 8px; }
.button { display: block; width: 100%; box-sizing: border-box; min-height: 48px; padding: 12px 24px; border: 0;
  border-radius: 12px; font: inherit; font-size: 0.875rem; font-weight: 600; text-align: center;
  text-decoration: none; cursor: pointer; color: #ffffff;
  background-image: linear-gradient(135deg, #7c3aed 0%, #9333ea 50%, #a21caf 100%);
  box-shadow: 0 8px 24px -10px rgb(124 58 237 / 0.7); transition: filter 200ms ease-out; }
.button:hover { filter: brightness(1.1); }
.button.secondary { background: var(--sv-surface); background-image: none; color: var(--sv-ink);
  border: 1px solid var(--sv-line); box-shadow: none; }
.button.secondary:hover { background: var(--sv-surface-2); filter: none; }
.button:focus-visible { outline: 2px solid var(--sv-focus-on-accent); outline-offset: 2px; }
.button.secondary:focus-visible { outline-color: var(--sv-focus); }
a { color: var(--sv-accent-ink); }
table { width: 100%; border-collapse: collapse; margin: 0 0 24px; font-size: 0.875rem; }
th, td { text-align: left; padding: 8px 4px; border-bottom: 1px solid var(--sv-line); }
th { color: var(--sv-ink-muted); font-weight: 600; }
@media (prefers-reduced-motion: reduce) { .button { transition: none; } }
`;
}
