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

export const SANDBOX_CSS = `:root { color-scheme: dark light; font-family: system-ui, sans-serif; }
body { margin: 0; min-height: 100vh; display: grid; place-items: center; padding: 24px; box-sizing: border-box;
  background: #0f1117; color: #e8e8ee; }
.card { width: 100%; max-width: 440px; background: #1a1d27; border-radius: 16px; padding: 32px;
  box-shadow: 0 12px 40px rgb(0 0 0 / 40%); }
.notice { margin: 0 0 24px; padding: 8px 12px; border-radius: 8px; background: #fbbf24; color: #1a1300;
  font-weight: 700; text-align: center; }
h1 { margin: 0 0 16px; font-size: 1.5rem; }
.summary { margin: 0 0 24px; display: grid; gap: 8px; }
.summary div { display: flex; justify-content: space-between; gap: 16px; }
.summary dt { color: #a3a3b5; }
.summary dd { margin: 0; font-weight: 600; }
.explain, .state { color: #c7c7d4; line-height: 1.5; }
.state.paid { color: #86efac; }
form { margin: 0 0 8px; }
.button { display: block; width: 100%; box-sizing: border-box; padding: 12px 16px; border: 0; border-radius: 8px;
  font: inherit; font-weight: 600; text-align: center; text-decoration: none; cursor: pointer;
  background: linear-gradient(135deg, #8b5cf6, #ec4899); color: #fff; }
.button.secondary { background: transparent; color: #c7c7d4; border: 1px solid #3a3d4d; }
.button:focus-visible { outline: 3px solid #fbbf24; outline-offset: 2px; }
table { width: 100%; border-collapse: collapse; margin: 0 0 24px; font-size: 0.9rem; }
th, td { text-align: left; padding: 6px 4px; border-bottom: 1px solid #2a2d3a; }
@media (prefers-color-scheme: light) {
  body { background: #f4f4f8; color: #15161c; }
  .card { background: #fff; box-shadow: 0 12px 40px rgb(0 0 0 / 10%); }
  .summary dt, .explain, .state { color: #4a4b57; }
  .state.paid { color: #15803d; }
  .button.secondary { color: #4a4b57; border-color: #d4d4dc; }
  th, td { border-color: #e4e4ea; }
}
`;
