// The console's Archives of deleted accounts (decision 0157), against a stand-in server at the fetch boundary: the
// list shows whose each archive was, who deleted it and when, until when it is kept and its size; Download asks for
// a signed link and follows it; a failed deletion is retried or cancelled; a kept archive is removed early only
// once confirmed; and a deletion from Users that the worker finishes (202) says where its archive will be.
import { fireEvent, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ADMIN_LISTED_PLAYER } from "../../../test/admin-fixtures";
import { json, mockFetch } from "../../../test/mock-fetch";
import { Providers, SIGNED_IN } from "../../../test/render-app";
import { AdminConsole } from "./admin-console";

const archive = (over: Record<string, unknown>) => ({
  id: "22222222-2222-4222-8222-222222222222",
  status: "kept",
  progress: 100,
  step: null,
  error: null,
  email: "mara@example.com",
  username: "mara",
  user_id: null,
  deleted_by: "admin@example.com",
  reason: "Asked by mail",
  created_at: "2026-01-10T10:00:00.000Z",
  deleted_at: "2026-01-10T10:01:00.000Z",
  expires_at: "2026-02-09T10:01:00.000Z",
  filename: "storyverse-mara-2026-01-10.zip",
  bytes: 5 * 1024 * 1024,
  ...over,
});
const kept = archive({});
const failed = archive({
  id: "33333333-3333-4333-8333-333333333333",
  status: "failed",
  error: "The account's archive could not be made.",
  email: "ivo@example.com",
  username: "ivo",
  user_id: "44444444-4444-4444-8444-444444444444",
  deleted_at: null,
  expires_at: null,
  filename: null,
  bytes: null,
});

function renderConsole() {
  render(
    <Providers auth={SIGNED_IN}>
      <AdminConsole />
    </Providers>,
  );
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe("Archives of deleted accounts", () => {
  it("lists each archive with who, by whom, until when and its size; downloads, retries, cancels and removes", async () => {
    const clicked: { href: string; download: string }[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push({ href: this.getAttribute("href") ?? "", download: this.download });
    });
    const calls = mockFetch(({ path, method }) => {
      if (path.startsWith("/api/admin/archives?") || path === "/api/admin/archives")
        return json({ archives: [kept, failed], next_cursor: null });
      if (path.endsWith("/download"))
        return json({
          download_url: "/api/media/deleted-account-archives/x.zip?exp=1&sig=a",
          filename: kept.filename,
          bytes: kept.bytes,
        });
      if (path.endsWith("/retry")) return json({ archive: { ...failed, status: "queued", error: null } });
      if (method === "DELETE") return json({ removed: true });
      return json({ users: [], next_cursor: null });
    });
    renderConsole();
    fireEvent.click(screen.getByRole("button", { name: "Archives" }));
    const list = await screen.findByRole("list", { name: "Archives of deleted accounts" });
    const [keptRow, failedRow] = within(list).getAllByRole("listitem");
    expect(keptRow!.textContent).toContain("mara@example.com");
    expect(keptRow!.textContent).toContain("5.0 MB");
    expect(keptRow!.textContent).toMatch(/Kept until Feb 9, 2026/);
    expect(keptRow!.textContent).toMatch(/Deleted Jan 10, 2026, .* by admin@example\.com/);
    expect(keptRow!.textContent).toContain("Reason: Asked by mail");
    expect(failedRow!.textContent).toContain(
      "Its archive could not be made, so the account was not deleted: it stays disabled.",
    );
    expect(within(failedRow!).queryByRole("button", { name: /Download/ })).toBeNull();

    fireEvent.click(
      within(keptRow!).getByRole("button", { name: "Download the archive of mara@example.com" }),
    );
    await vi.waitFor(() => expect(clicked).toHaveLength(1));
    expect(clicked[0]).toEqual({
      href: "/api/media/deleted-account-archives/x.zip?exp=1&sig=a",
      download: "storyverse-mara-2026-01-10.zip",
    });
    expect(calls.find((call) => call.path.endsWith("/download"))).toMatchObject({
      method: "POST",
      path: `/api/admin/archives/${kept.id}/download`,
    });

    fireEvent.click(
      within(failedRow!).getByRole("button", { name: "Retry the deletion of ivo@example.com" }),
    );
    expect(await screen.findByText("The deletion of ivo@example.com runs again.")).toBeTruthy();
    expect(calls.some((call) => call.path === `/api/admin/archives/${failed.id}/retry`)).toBe(true);

    // Removing early asks first; nothing is sent until it is confirmed.
    fireEvent.click(
      within(keptRow!).getByRole("button", { name: "Remove the archive of mara@example.com now" }),
    );
    expect(calls.some((call) => call.method === "DELETE")).toBe(false);
    fireEvent.click(within(keptRow!).getByRole("button", { name: "Remove for good" }));
    expect(await screen.findByText("The archive of mara@example.com was removed.")).toBeTruthy();
    expect(calls.find((call) => call.method === "DELETE")?.path).toBe(`/api/admin/archives/${kept.id}`);
  });

  it("says a deletion the worker finishes is under way, and where its archive will be", async () => {
    const user = ADMIN_LISTED_PLAYER;
    mockFetch(({ path, method }) => {
      if (path === "/api/admin/users" || path.startsWith("/api/admin/users?"))
        return json({ users: [user], next_cursor: null });
      if (path === `/api/admin/users/${user.id}` && method === "GET") return json(user);
      if (method === "DELETE")
        return json(
          {
            deleting: true,
            kept_days: 30,
            archive: archive({ status: "queued", user_id: user.id, deleted_at: null, expires_at: null }),
          },
          202,
        );
      return json({});
    });
    renderConsole();
    fireEvent.click(await screen.findByRole("button", { name: /mara@example\.com/ }));
    fireEvent.click(await screen.findByRole("button", { name: "Delete account" }));
    fireEvent.change(screen.getByLabelText("Reason for deleting"), { target: { value: "Asked by mail" } });
    fireEvent.change(screen.getByLabelText("Type mara@example.com to confirm"), {
      target: { value: "mara@example.com" },
    });
    fireEvent.click(screen.getByRole("button", { name: "Delete account for good" }));
    expect(
      await screen.findByText(
        "mara@example.com is signed out and disabled, and is being deleted. Its data export is made first and kept for you for 30 days under Archives.",
      ),
    ).toBeTruthy();
  });
});
