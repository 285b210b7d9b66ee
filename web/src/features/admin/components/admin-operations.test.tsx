// The console's Usage, Health and Moderation tabs and the account actions added with them (decision 0150),
// against a stand-in server at the fetch boundary: what the administrator sees and what each button sends.
import { fireEvent, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { setLanguage } from "../../../i18n/i18n";
import { ADMIN_LISTED_PLAYER } from "../../../test/admin-fixtures";
import { json, mockFetch } from "../../../test/mock-fetch";
import { Providers, SIGNED_IN } from "../../../test/render-app";
import { AdminConsole } from "./admin-console";
import { rangeProblem } from "./usage-panel";

const kinds = (text: number, pictures = 0) => ({ text, pictures, clips: 0, speech: 0, films: 0, other: 0 });
const usage = (group_by: string) => ({
  from: "2026-01-10",
  to: "2026-01-11",
  group_by,
  user_id: null,
  total_credits: 8,
  total_uses: 5,
  rows:
    group_by === "user"
      ? [{ key: "u1", label: "mara@example.com", credits: 8, uses: 5, by_kind: kinds(0.5, 7.5) }]
      : [
          { key: "2026-01-10", label: "2026-01-10", credits: 8, uses: 5, by_kind: kinds(0.5, 7.5) },
          { key: "2026-01-11", label: "2026-01-11", credits: 0, uses: 0, by_kind: kinds(0) },
        ],
});
const user = ADMIN_LISTED_PLAYER;

function renderConsole() {
  render(
    <Providers auth={SIGNED_IN}>
      <AdminConsole />
    </Providers>,
  );
}

afterEach(() => vi.unstubAllGlobals());

describe("Usage", () => {
  it("charts credits per day with the figures in a table, regroups by account, and downloads the CSV", async () => {
    const calls = mockFetch(({ path }) => {
      if (path.startsWith("/api/admin/usage") && path.includes("format=csv"))
        return new Response("date,text\r\n", {
          headers: { "content-type": "text/csv", "content-disposition": 'attachment; filename="u.csv"' },
        });
      if (path.startsWith("/api/admin/usage")) {
        const group = new URLSearchParams(path.split("?")[1]).get("group_by") ?? "day";
        return json(usage(group));
      }
      return json({ users: [], next_cursor: null });
    });
    URL.createObjectURL = vi.fn(() => "blob:csv");
    URL.revokeObjectURL = vi.fn();
    renderConsole();
    fireEvent.click(screen.getByRole("button", { name: "Usage" }));
    expect(
      await screen.findByRole("img", {
        name: "Credits spent per day from 2026-01-10 to 2026-01-11: 8 credits in all.",
      }),
    ).toBeTruthy();
    const table = screen.getByRole("table");
    // Quiet days are in the chart, not the table.
    expect(within(table).getAllByRole("row")).toHaveLength(2);
    expect(within(table).getByRole("rowheader", { name: "2026-01-10" })).toBeTruthy();
    expect(within(table).getByRole("cell", { name: "7.5" })).toBeTruthy();

    fireEvent.click(screen.getByRole("button", { name: "By account" }));
    expect(await screen.findByRole("img", { name: /per account/ })).toBeTruthy();
    expect(screen.getByRole("rowheader", { name: "mara@example.com" })).toBeTruthy();
    expect(calls.some((call) => call.path.includes("group_by=user"))).toBe(true);

    fireEvent.click(screen.getByRole("button", { name: "Download CSV" }));
    await vi.waitFor(() =>
      expect(
        calls.some((call) => call.path.includes("format=csv") && call.path.includes("group_by=user")),
      ).toBe(true),
    );
  });

  it("refuses a range that is backwards or longer than 366 days before asking", () => {
    expect(rangeProblem("2026-01-12", "2026-01-10")).toBe("The first day must be on or before the last.");
    expect(rangeProblem("2025-01-01", "2026-01-02")).toBe("Choose at most 366 days.");
    expect(rangeProblem("2025-01-02", "2026-01-02")).toBeNull();
  });
});

describe("Health", () => {
  it("shows vendor latency and errors, storage, streams and processes, and retries a failed job", async () => {
    const calls = mockFetch(({ path, method }) => {
      if (path === "/api/admin/health")
        return json({
          since: "2026-01-10T11:00:00.000Z",
          vendors: [
            {
              vendor: "openai",
              kind: "text",
              calls: 40,
              errors: 2,
              error_rate: 0.05,
              p50_ms: 820,
              p95_ms: 2400,
            },
          ],
          queue: {
            waiting: [{ kind: "turn-media", state: "created", count: 3 }],
            failed: [
              { id: "j1", kind: "turn-media", failed_at: "2026-01-10T11:30:00.000Z", error: "Timed out" },
            ],
          },
          storage: { used_bytes: 5 * 1024 * 1024, accounts: 4 },
          event_streams_open: 7,
          processes: { reporting: 3, http: 2, worker: 1 },
        });
      if (method === "POST" && path === "/api/admin/jobs/turn-media/j1/retry") return json({ retried: true });
      return json({ users: [], next_cursor: null });
    });
    renderConsole();
    fireEvent.click(screen.getByRole("button", { name: "Health" }));
    const row = await screen.findByRole("row", { name: /openai/ });
    expect(within(row).getByText("5%")).toBeTruthy();
    expect(within(row).getByText("2,400 ms")).toBeTruthy();
    expect(screen.getByText("7")).toBeTruthy();
    // Every process's figures (decision 0159): how many reported, and what they do.
    expect(screen.getByText("3: 2 serving the app, 1 running jobs")).toBeTruthy();
    expect(screen.getByText(/by 4 accounts/)).toBeTruthy();
    expect(screen.getByText("Timed out")).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Retry turn-media job" }));
    expect(await screen.findByText("The turn-media job is queued again.")).toBeTruthy();
    expect(
      calls.some((call) => call.method === "POST" && call.path === "/api/admin/jobs/turn-media/j1/retry"),
    ).toBe(true);
  });
});

describe("Moderation", () => {
  it("finds share links and takes one down only with a reason", async () => {
    const calls = mockFetch(({ path, method }) => {
      if (path.startsWith("/api/admin/shares") && method === "GET")
        return json({
          shares: [
            {
              token: "AbCdEfGhIjKlMnOpQrStUv",
              url: "http://localhost/s/AbCdEfGhIjKlMnOpQrStUv",
              story_id: "s1",
              story_title: "Lantern road",
              owner_id: "u1",
              owner_email: "mara@example.com",
              created_at: "2026-01-10T11:00:00.000Z",
              taken_down: null,
            },
          ],
          next_cursor: null,
        });
      if (method === "DELETE") return json({ taken_down: true, story_title: "Lantern road" });
      return json({ users: [], next_cursor: null });
    });
    renderConsole();
    fireEvent.click(screen.getByRole("button", { name: "Moderation" }));
    fireEvent.change(await screen.findByLabelText("Search share links"), { target: { value: "mara" } });
    fireEvent.click(screen.getByRole("button", { name: "Search" }));
    await vi.waitFor(() =>
      expect(calls.some((call) => call.path === "/api/admin/shares?status=live&q=mara")).toBe(true),
    );
    fireEvent.click(await screen.findByRole("button", { name: "Take down the link to Lantern road" }));
    fireEvent.click(screen.getByRole("button", { name: "Take link down" }));
    expect(await screen.findByText("A reason is required: the owner sees it.")).toBeTruthy();
    expect(calls.some((call) => call.method === "DELETE")).toBe(false);
    fireEvent.change(screen.getByLabelText("Reason the owner sees"), { target: { value: "Spam" } });
    fireEvent.click(screen.getByRole("button", { name: "Take link down" }));
    expect(
      await screen.findByText("The link to “Lantern road” is down. Its owner sees your reason."),
    ).toBeTruthy();
    const sent = calls.find((call) => call.method === "DELETE");
    expect(sent).toMatchObject({
      path: "/api/admin/shares/AbCdEfGhIjKlMnOpQrStUv",
      body: { reason: "Spam" },
    });
  });
});

describe("taken-down links", () => {
  it("lists them with the reason the owner was given, and lifts one: the link works again", async () => {
    const calls = mockFetch(({ path, method }) => {
      if (path.startsWith("/api/admin/shares?status=taken_down") && method === "GET")
        return json({
          shares: [
            {
              token: "AbCdEfGhIjKlMnOpQrStUv",
              url: "http://localhost/s/AbCdEfGhIjKlMnOpQrStUv",
              story_id: "s1",
              story_title: "Lantern road",
              owner_id: "u1",
              owner_email: "mara@example.com",
              created_at: "2026-01-10T11:00:00.000Z",
              taken_down: { at: "2026-01-11T09:30:00.000Z", reason: "Copied from a book" },
            },
          ],
          next_cursor: null,
        });
      if (path.startsWith("/api/admin/shares") && method === "GET")
        return json({ shares: [], next_cursor: null });
      if (path.endsWith("/lift")) return json({ lifted: true, story_title: "Lantern road" });
      return json({ users: [], next_cursor: null });
    });
    renderConsole();
    fireEvent.click(screen.getByRole("button", { name: "Moderation" }));
    fireEvent.click(await screen.findByRole("button", { name: "Taken down" }));
    expect(await screen.findByText("Copied from a book")).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Take down the link to Lantern road" })).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: "Lift the takedown of the link to Lantern road" }));
    expect(
      await screen.findByText("The link to “Lantern road” works again. Its owner no longer sees the reason."),
    ).toBeTruthy();
    expect(calls.find((call) => call.method === "POST")).toMatchObject({
      path: "/api/admin/shares/AbCdEfGhIjKlMnOpQrStUv/lift",
    });
  });
});

describe("an account's password and deletion", () => {
  it("forces a password reset, and deletes only with the email typed again", async () => {
    const calls = mockFetch(({ path, method }) => {
      if (path === "/api/admin/users" || path.startsWith("/api/admin/users?"))
        return json({ users: [user], next_cursor: null });
      if (path === `/api/admin/users/${user.id}` && method === "GET") return json(user);
      if (path.endsWith("/password-reset")) return json({ sessions_ended: 1, mail_sent_to: user.email });
      if (method === "DELETE") return json({ deleted: true, ledger_rows_kept: 3 });
      return json({});
    });
    renderConsole();
    fireEvent.click(await screen.findByRole("button", { name: /mara@example\.com/ }));
    fireEvent.click(await screen.findByRole("button", { name: "Force password reset" }));
    fireEvent.change(screen.getByLabelText("Reason (optional)"), { target: { value: "Leaked" } });
    fireEvent.click(screen.getByRole("button", { name: "Reset password and sign out" }));
    expect(
      await screen.findByText(
        "Signed out of 1 device. A link to set a new password was mailed to mara@example.com.",
      ),
    ).toBeTruthy();
    expect(calls.find((call) => call.path.endsWith("/password-reset"))?.body).toEqual({ reason: "Leaked" });

    fireEvent.click(screen.getByRole("button", { name: "Delete account" }));
    fireEvent.change(screen.getByLabelText("Reason for deleting"), { target: { value: "Asked by mail" } });
    fireEvent.change(screen.getByLabelText("Type mara@example.com to confirm"), {
      target: { value: "mara@" },
    });
    fireEvent.click(screen.getByRole("button", { name: "Delete account for good" }));
    expect(await screen.findByText("Type the account's email exactly to confirm.")).toBeTruthy();
    expect(calls.some((call) => call.method === "DELETE")).toBe(false);
    fireEvent.change(screen.getByLabelText("Type mara@example.com to confirm"), {
      target: { value: "MARA@example.com" },
    });
    fireEvent.click(screen.getByRole("button", { name: "Delete account for good" }));
    expect(
      await screen.findByText(
        "mara@example.com was deleted with everything it owned. 3 ledger rows are kept, anonymised, for accounting.",
      ),
    ).toBeTruthy();
    expect(calls.find((call) => call.method === "DELETE")).toMatchObject({
      path: `/api/admin/users/${user.id}`,
      body: { reason: "Asked by mail", confirm_email: "MARA@example.com" },
    });
  });
});

describe("in German", () => {
  it("shows the console, its health figures and plurals in German", async () => {
    await setLanguage("de");
    mockFetch(({ path }) => {
      if (path === "/api/admin/health")
        return json({
          since: "2026-01-10T11:00:00.000Z",
          vendors: [
            {
              vendor: "openai",
              kind: "text",
              calls: 1250,
              errors: 2,
              error_rate: 0.05,
              p50_ms: 820,
              p95_ms: 2400,
            },
          ],
          queue: { waiting: [], failed: [] },
          storage: { used_bytes: 5 * 1024 * 1024, accounts: 4 },
          event_streams_open: 7,
          processes: { reporting: 3, http: 2, worker: 1 },
        });
      if (path.startsWith("/api/admin/usage")) return json(usage("day"));
      return json({ users: [], next_cursor: null });
    });
    renderConsole();
    expect(screen.getByRole("heading", { level: 1, name: "Admin" })).toBeTruthy();
    expect(screen.getByRole("navigation", { name: "Admin-Bereiche" })).toBeTruthy();
    expect(screen.getByRole("heading", { name: "Nutzer" })).toBeTruthy();
    expect(screen.getByLabelText("Konten durchsuchen")).toBeTruthy();

    fireEvent.click(screen.getByRole("button", { name: "Zustand" }));
    const row = await screen.findByRole("row", { name: /openai/ });
    expect(within(row).getByText("1.250")).toBeTruthy();
    expect(within(row).getByText("2.400 ms")).toBeTruthy();
    expect(within(row).getByText(/^5\s%$/)).toBeTruthy();
    expect(screen.getByText("5,0 MB von 4 Konten")).toBeTruthy();
    expect(screen.getByText("Keine fehlgeschlagenen Jobs.")).toBeTruthy();

    fireEvent.click(screen.getByRole("button", { name: "Nutzung" }));
    expect(
      await screen.findByRole("img", {
        name: "Ausgegebene Credits pro Tag vom 2026-01-10 bis 2026-01-11: insgesamt 8 Credits.",
      }),
    ).toBeTruthy();
    expect(within(screen.getByRole("table")).getByRole("cell", { name: "7,5" })).toBeTruthy();
    expect(screen.getByRole("button", { name: "CSV herunterladen" })).toBeTruthy();
  });
});
