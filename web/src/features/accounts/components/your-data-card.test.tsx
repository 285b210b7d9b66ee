import { fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { readStorage } from "../../../lib/storage";
import { json, mockFetch } from "../../../test/mock-fetch";
import { Providers, SIGNED_IN } from "../../../test/render-app";
import { YourDataCard } from "./your-data-card";

const archive = (over: Record<string, unknown>) => ({
  success: true,
  export: {
    id: "e1",
    status: "running",
    progress: 40,
    step: "Story 2 of 5",
    error: null,
    filename: null,
    bytes: null,
    download_url: null,
    expires_at: null,
    created_at: "2026-11-29T00:00:00.000Z",
    updated_at: "2026-11-29T00:00:00.000Z",
    ...over,
  },
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("Your data", () => {
  it("shows the archive's step and progress, then its download", async () => {
    let polls = 0;
    mockFetch(({ method, path }) => {
      if (method === "POST" && path === "/api/account/export")
        return json(archive({ status: "queued", progress: 0 }), 202);
      if (path === "/api/account/export/e1") {
        polls += 1;
        return json(
          polls === 1
            ? archive({})
            : archive({
                status: "completed",
                progress: 100,
                step: null,
                filename: "storyverse-ada-2026-11-29.zip",
                bytes: 2_500_000,
                download_url: "/api/media/account-exports/e1.zip?exp=1&sig=s",
              }),
        );
      }
      return json({ detail: "unexpected" }, 500);
    });
    render(
      <Providers auth={SIGNED_IN}>
        <YourDataCard />
      </Providers>,
    );
    fireEvent.click(screen.getByRole("button", { name: "Download my data" }));
    const bar = await screen.findByRole("progressbar", { name: "Making your archive" }, { timeout: 3000 });
    await waitFor(() => expect(bar.getAttribute("aria-valuenow")).toBe("40"), { timeout: 3000 });
    expect(screen.getByText("Story 2 of 5")).toBeTruthy();
    const link = await screen.findByRole("link", { name: /Download your archive/ }, { timeout: 4000 });
    expect(link.getAttribute("href")).toBe("/api/media/account-exports/e1.zip?exp=1&sig=s");
    expect(link.getAttribute("download")).toBe("storyverse-ada-2026-11-29.zip");
    expect(screen.getByText(/is ready\. It is kept for 7 days\./)).toBeTruthy();
  });

  it("asks for the password, shows a refusal, and signs out once the account is deleted", async () => {
    const calls = mockFetch(({ method, body }) => {
      if (method === "DELETE") {
        return (body as { password: string }).password === "right"
          ? json({
              success: true,
              message: "Your account and everything in it have been deleted.",
              ledger_rows_kept: 3,
            })
          : json({ detail: "That password is not right. Nothing was deleted.", code: "forbidden" }, 403);
      }
      return json({ detail: "unexpected" }, 500);
    });
    render(
      <Providers auth={SIGNED_IN}>
        <YourDataCard />
      </Providers>,
    );
    fireEvent.click(screen.getByRole("button", { name: "Delete account" }));
    const dialog = await screen.findByRole("dialog", { name: "Delete your account?" });
    expect(dialog.textContent).toContain("Deleted: Your stories with every branch and message");
    expect(dialog.textContent).toContain("Kept: For accounting, with nothing that names you");
    const confirm = within(dialog).getByRole("button", { name: "Delete my account" }) as HTMLButtonElement;
    expect(confirm.disabled).toBe(true);
    fireEvent.change(within(dialog).getByLabelText("Your password"), { target: { value: "wrong" } });
    fireEvent.click(confirm);
    expect(await within(dialog).findByText("That password is not right. Nothing was deleted.")).toBeTruthy();
    expect(readStorage("token")).not.toBeNull();
    fireEvent.change(within(dialog).getByLabelText("Your password"), { target: { value: "right" } });
    fireEvent.click(confirm);
    await waitFor(() => expect(readStorage("token")).toBeNull());
    expect(calls.filter((call) => call.method === "DELETE").map((call) => call.body)).toEqual([
      { password: "wrong" },
      { password: "right" },
    ]);
    // The session ended on the server already: no logout call is made.
    expect(calls.some((call) => call.path === "/api/logout")).toBe(false);
  });
});
