import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { setLanguage } from "../../../i18n/i18n";
import { type FetchCall, json, mockFetch } from "../../../test/mock-fetch";
import { renderApp, SIGNED_IN } from "../../../test/render-app";

// The browser leaving for the payment page is the one thing jsdom cannot do.
const redirects: string[] = [];
vi.mock("./redirect", async (importOriginal) => {
  const actual = await importOriginal<typeof import("./redirect")>();
  return {
    ...actual,
    redirectTo: (url: string) => {
      const safe = actual.safeRedirectUrl(url, "http://localhost");
      if (safe) redirects.push(safe);
      return safe !== null;
    },
  };
});

type Routes = Record<string, (call: FetchCall) => Response | Promise<Response>>;

function server(overrides: Routes = {}) {
  const routes: Routes = {
    "GET /api/user/verify": () =>
      json({
        valid: true,
        user_id: "u1",
        email: "ada@example.com",
        username: "ada",
        email_verified: true,
        credits_remaining: 15,
        created_at: "2025-01-01T00:00:00.000Z",
      }),
    "GET /api/credit-balance": () => json({ remaining: 14.5, unlimited: false }),
    "GET /api/subscription-details": () =>
      json({
        billing_type: "pay_as_you_go",
        remaining: 14.5,
        lifetime_credits: 15,
        last_top_up_at: null,
        has_billing_account: false,
      }),
    "GET /api/monthly-activity": () =>
      json({
        chat_interactions: 1,
        images_generated: 0,
        videos_generated: 0,
        stories_created: 2,
        total_credits_used: 0.5,
        month: "2026-05",
      }),
    "GET /api/credit-history": () =>
      json({
        success: true,
        has_more: false,
        transactions: [
          {
            id: "t2",
            transaction_type: "usage_chat",
            credits_amount: -0.5,
            description: "Chat message",
            created_at: "2026-05-02T10:00:00.000Z",
            balance_after: 14.5,
          },
          {
            id: "t1",
            transaction_type: "signup_bonus",
            credits_amount: 15,
            description: "Welcome bonus",
            created_at: "2026-05-01T10:00:00.000Z",
            balance_after: 15,
          },
        ],
      }),
    ...overrides,
  };
  return mockFetch((call) => {
    const route = routes[`${call.method} ${call.path.split("?")[0]}`];
    return route ? route(call) : json({ detail: "Not found" }, 404);
  });
}

const section = (name: string) => screen.getByRole("region", { name });

beforeEach(() => {
  redirects.length = 0;
});

// The page is a lazy chunk transformed on first use: give the first render room on a busy machine.
const FIRST_RENDER = { timeout: 15_000 };

describe("Credits page", { timeout: 30_000 }, () => {
  it("shows the Credits card, this month's activity, billing, the packs and the history", async () => {
    server();
    renderApp("/subscription", SIGNED_IN);
    expect(
      await screen.findByRole("heading", { level: 1, name: "Manage Credits" }, FIRST_RENDER),
    ).toBeTruthy();

    const credits = section("Credits");
    await waitFor(() => expect(credits.textContent).toContain("14.5credits available"));
    await waitFor(() => expect(within(credits).getByText("None")).toBeTruthy());
    expect(within(credits).getByText("Last top-up")).toBeTruthy();
    expect(within(credits).getByText("Lifetime credits").nextElementSibling?.textContent).toBe("15");

    const activity = section("Activity This Month");
    for (const label of ["Stories", "Images Generated", "Videos Generated", "Chat Interactions"]) {
      expect(within(activity).getByText(label)).toBeTruthy();
    }
    await waitFor(() =>
      expect(within(activity).getByText("Stories").parentElement?.textContent).toContain("2"),
    );
    expect(activity.textContent).toContain("0.5 credits used this month");

    const billing = section("Billing and Payments");
    expect(within(billing).getByText("Billing Type")).toBeTruthy();
    expect(within(billing).getByText("Pay as you go")).toBeTruthy();

    const packs = section("Top Up Credits");
    expect(packs.textContent).toContain("Starter Pack$10100 credits");
    expect(packs.textContent).toContain("Pro Pack$25275 credits+25 bonus");
    expect(packs.textContent).toContain("Expert Pack$50600 credits+100 bonus");

    const history = section("Credit History");
    const rows = await within(history).findAllByRole("listitem");
    expect(rows.map((row) => row.textContent)).toEqual([
      expect.stringContaining("\u22120.5 credits"),
      expect.stringContaining("+15 credits"),
    ]);
    expect(rows[1]?.textContent).toContain("Sign-up bonus");
  });

  it("shows the media storage used of the quota, full when it is, and 'no limit' when unlimited", async () => {
    const MB = 1024 * 1024;
    server({ "GET /api/media/usage": () => json({ usedBytes: 512 * MB, limitBytes: 2048 * MB }) });
    const { unmount } = renderApp("/subscription", SIGNED_IN);
    const storage = await screen.findByRole("region", { name: "Media storage" }, FIRST_RENDER);
    await waitFor(() => expect(within(storage).getByText("512.0 MB of 2.0 GB used")).toBeTruthy());
    expect(within(storage).getByRole("progressbar").getAttribute("aria-valuenow")).toBe("25");
    unmount();

    server({ "GET /api/media/usage": () => json({ usedBytes: 2048 * MB, limitBytes: 2048 * MB }) });
    const full = renderApp("/subscription", SIGNED_IN);
    const fullCard = await screen.findByRole("region", { name: "Media storage" }, FIRST_RENDER);
    await waitFor(() => expect(within(fullCard).getByText("2.0 GB of 2.0 GB used")).toBeTruthy());
    expect(fullCard.textContent).toContain(
      "Your media storage is full. Delete items from the Gallery to make room.",
    );
    full.unmount();

    server({ "GET /api/media/usage": () => json({ usedBytes: 3 * MB, limitBytes: null }) });
    renderApp("/subscription", SIGNED_IN);
    const unlimited = await screen.findByRole("region", { name: "Media storage" }, FIRST_RENDER);
    await waitFor(() => expect(within(unlimited).getByText("3.0 MB used (no limit)")).toBeTruthy());
    expect(within(unlimited).queryByRole("progressbar")).toBeNull();
  });

  it("shows infinity for an unlimited account and hides what the month cost", async () => {
    server({
      "GET /api/credit-balance": () => json({ remaining: -1, unlimited: true }),
    });
    renderApp("/subscription", SIGNED_IN);
    const credits = await screen.findByRole("region", { name: "Credits" }, FIRST_RENDER);
    await waitFor(() => expect(within(credits).getByText("∞")).toBeTruthy());
    expect(credits.textContent).toContain("Unlimited credits");
    await waitFor(() => expect(section("Activity This Month").textContent).toContain("Chat Interactions"));
    expect(section("Activity This Month").textContent).not.toContain("used this month");
    expect(
      within(screen.getByRole("banner")).getByRole("button", { name: "Unlimited credits" }),
    ).toBeTruthy();
  });

  it("shows the last top-up date once there is one", async () => {
    server({
      "GET /api/subscription-details": () =>
        json({
          billing_type: "pay_as_you_go",
          remaining: 290,
          lifetime_credits: 290,
          last_top_up_at: "2026-01-05T12:00:00.000Z",
          has_billing_account: true,
        }),
    });
    renderApp("/subscription", SIGNED_IN);
    const credits = await screen.findByRole("region", { name: "Credits" }, FIRST_RENDER);
    await waitFor(() => expect(within(credits).getByText("Jan 5, 2026")).toBeTruthy());
  });

  it("Buy starts a checkout for the pack and goes to its payment page", async () => {
    const calls = server({
      "POST /api/payments/create-checkout-session": () =>
        json({ checkout_url: "/sandbox/checkout/cs_sandbox_1", session_id: "cs_sandbox_1" }),
    });
    renderApp("/subscription", SIGNED_IN);
    fireEvent.click(await screen.findByRole("button", { name: "Buy Pro Pack" }, FIRST_RENDER));
    await waitFor(() => expect(redirects).toEqual(["http://localhost/sandbox/checkout/cs_sandbox_1"]));
    expect(calls.find((call) => call.path === "/api/payments/create-checkout-session")?.body).toEqual({
      price_id: "pack_pro",
      purchase_type: "credits",
      credits_amount: 275,
    });
    // Every Buy waits while the payment page loads.
    expect((screen.getByRole("button", { name: "Buy Expert Pack" }) as HTMLButtonElement).disabled).toBe(
      true,
    );
  });

  it("says 'Failed to create checkout session: {message}' and lets the user try again", async () => {
    server({
      "POST /api/payments/create-checkout-session": () => json({ detail: "Payments are unavailable" }, 502),
    });
    renderApp("/subscription", SIGNED_IN);
    fireEvent.click(await screen.findByRole("button", { name: "Buy Starter Pack" }, FIRST_RENDER));
    expect(
      await screen.findByText("Failed to create checkout session: Payments are unavailable"),
    ).toBeTruthy();
    expect(redirects).toEqual([]);
    expect((screen.getByRole("button", { name: "Buy Starter Pack" }) as HTMLButtonElement).disabled).toBe(
      false,
    );
  });

  it("Manage Billing opens the portal, or says why there is none yet", async () => {
    let answer: unknown = {
      success: false,
      portal_url: null,
      fallback: true,
      message: "Your billing portal is being set up: it opens after your first credit purchase.",
    };
    server({ "POST /api/subscription/manage-billing": () => json(answer) });
    renderApp("/subscription", SIGNED_IN);
    const manage = await screen.findByRole("button", { name: "Manage Billing" }, FIRST_RENDER);
    fireEvent.click(manage);
    expect(await screen.findByText(/billing portal is being set up/)).toBeTruthy();
    expect(redirects).toEqual([]);

    answer = { success: true, portal_url: "https://billing.example/session/1", fallback: false };
    await waitFor(() => expect((manage as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(manage);
    await waitFor(() => expect(redirects).toEqual(["https://billing.example/session/1"]));
  });

  it("says 'Unable to access billing portal: {message}' when the call fails", async () => {
    server({ "POST /api/subscription/manage-billing": () => json({ detail: "Stripe said no" }, 502) });
    renderApp("/subscription", SIGNED_IN);
    fireEvent.click(await screen.findByRole("button", { name: "Manage Billing" }, FIRST_RENDER));
    expect(await screen.findByText("Unable to access billing portal: Stripe said no")).toBeTruthy();
  });

  it("shows 'Failed to load data: {message}' with a retry when a card cannot load", async () => {
    let fail = true;
    server({
      "GET /api/monthly-activity": () =>
        fail
          ? json({ detail: "Database unavailable" }, 400)
          : json({
              chat_interactions: 0,
              images_generated: 3,
              videos_generated: 0,
              stories_created: 0,
              total_credits_used: 4.5,
              month: "2026-05",
            }),
    });
    renderApp("/subscription", SIGNED_IN);
    const activity = await screen.findByRole("region", { name: "Activity This Month" }, FIRST_RENDER);
    expect(await within(activity).findByText("Failed to load data: Database unavailable")).toBeTruthy();
    fail = false;
    fireEvent.click(within(activity).getByRole("button", { name: "Try again" }));
    await waitFor(() => expect(activity.textContent).toContain("4.5 credits used this month"));
  });

  it("says 'Failed to load account data.' when the account's details cannot load, and recovers on retry", async () => {
    let fail = true;
    server({
      "GET /api/subscription-details": () =>
        fail
          ? json({ detail: "Database unavailable" }, 503)
          : json({
              billing_type: "pay_as_you_go",
              remaining: 14.5,
              lifetime_credits: 115,
              last_top_up_at: null,
              has_billing_account: false,
            }),
    });
    renderApp("/subscription", SIGNED_IN);
    const credits = await screen.findByRole("region", { name: "Credits" }, FIRST_RENDER);
    const alert = await within(credits).findByRole("alert");
    expect(alert.textContent).toContain("Failed to load account data.");
    expect(within(credits).queryByText("Lifetime credits")).toBeNull();
    fail = false;
    fireEvent.click(within(credits).getByRole("button", { name: "Try again" }));
    await waitFor(() =>
      expect(within(credits).getByText("Lifetime credits").nextElementSibling?.textContent).toBe("115"),
    );
    expect(within(credits).queryByText("Failed to load account data.")).toBeNull();
  });

  it("speaks German: its numbers, dates, plurals and packs (decision 0155)", async () => {
    await setLanguage("de");
    server({
      "GET /api/subscription-details": () =>
        json({
          billing_type: "pay_as_you_go",
          remaining: 14.5,
          lifetime_credits: 1250,
          last_top_up_at: "2026-01-05T12:00:00.000Z",
          has_billing_account: true,
        }),
    });
    renderApp("/subscription", SIGNED_IN);
    expect(
      await screen.findByRole("heading", { level: 1, name: "Credits verwalten" }, FIRST_RENDER),
    ).toBeTruthy();

    const credits = section("Credits");
    await waitFor(() => expect(credits.textContent).toContain("14,5Credits verfügbar"));
    await waitFor(() => expect(within(credits).getByText("5. Jan. 2026")).toBeTruthy());
    expect(within(credits).getByText("Credits insgesamt").nextElementSibling?.textContent).toBe("1.250");

    const activity = section("Aktivität in diesem Monat");
    await waitFor(() => expect(activity.textContent).toContain("0,5 Credits in diesem Monat verbraucht."));
    expect(within(activity).getByText("Mai 2026")).toBeTruthy();

    const packs = section("Credits aufladen");
    expect(packs.textContent).toContain("Pro-Paket25\u00a0$275 Credits+25 Bonus");
    expect(within(packs).getByRole("button", { name: "Experten-Paket kaufen" })).toBeTruthy();

    const history = section("Credit-Verlauf");
    const rows = await within(history).findAllByRole("listitem");
    expect(rows[0]?.textContent).toContain("\u22120,5 Credits");
    expect(rows[1]?.textContent).toContain("Startbonus");
    expect(rows[1]?.textContent).toContain("Stand 15");
  });

  it("has a designed empty history", async () => {
    server({ "GET /api/credit-history": () => json({ success: true, has_more: false, transactions: [] }) });
    renderApp("/subscription", SIGNED_IN);
    expect(await screen.findByText(/No transactions yet/, {}, FIRST_RENDER)).toBeTruthy();
  });
});
