// Deleting an account confirmed by a fresh sign-in at the OIDC provider, in the web app (decision 0158): the
// delete dialog offers "Confirm with <provider>" to an account linked to it (alone when passwords are off), sends
// the browser to the provider's page the server gives, comes back to the dialog with a refusal in the app's own
// words (never the fragment's), and lands signed out, told the account is deleted.
import { fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { readStorage } from "../../../lib/storage";
import { type FetchCall, json, mockFetch } from "../../../test/mock-fetch";
import { Providers, renderApp, SIGNED_IN } from "../../../test/render-app";
import { captureOidcReturn, resetOidcCaptureForTests } from "../oidc-return";
import { YourDataCard } from "./your-data-card";

vi.mock("../api/oidc", async (importOriginal) => ({
  ...(await importOriginal<typeof import("../api/oidc")>()),
  visitProvider: vi.fn(() => true),
}));
const { visitProvider } = await import("../api/oidc");

afterEach(() => {
  resetOidcCaptureForTests();
  vi.mocked(visitProvider).mockClear();
});

const PROVIDER_PAGE = "https://id.guild.test/auth?prompt=login&max_age=0&state=s";

function server(password: boolean, linked: boolean) {
  return mockFetch((call: FetchCall) => {
    if (call.path === "/api/config") {
      return json({
        capabilities: [],
        providers: { text: "offline", image: "offline", video: "offline", transcription: null },
        offline_providers: true,
        sign_in: { password, oidc: { name: "Guild ID" } },
      });
    }
    if (call.method === "GET" && call.path === "/api/auth/oidc/delete-account") return json({ linked });
    if (call.method === "POST" && call.path === "/api/auth/oidc/delete-account") {
      return json({ url: PROVIDER_PAGE });
    }
    return json({ detail: "Not found" }, 404);
  });
}

const openDialog = async () => {
  render(
    <Providers auth={SIGNED_IN}>
      <YourDataCard />
    </Providers>,
  );
  fireEvent.click(screen.getByRole("button", { name: "Delete account" }));
  return screen.findByRole("dialog", { name: "Delete your account?" });
};

describe("deleting an account confirmed at the provider", () => {
  it("offers the provider alone when passwords are off, and sends the browser to the page the server gives", async () => {
    const calls = server(false, true);
    const dialog = await openDialog();
    const confirm = await within(dialog).findByRole("button", { name: "Confirm with Guild ID" });
    expect(dialog.textContent).toContain("Guild ID asks you to sign in again");
    expect(within(dialog).queryByLabelText("Your password")).toBeNull();
    expect(within(dialog).queryByRole("button", { name: "Delete my account" })).toBeNull();
    fireEvent.click(confirm);
    await waitFor(() => expect(visitProvider).toHaveBeenCalledWith(PROVIDER_PAGE));
    expect(
      calls.some((call) => call.method === "POST" && call.path === "/api/auth/oidc/delete-account"),
    ).toBe(true);
    // Nothing is deleted until the provider's answer reaches the server: this browser keeps its session.
    expect(readStorage("token")).not.toBeNull();
  });

  it("keeps the password beside the provider when passwords are on, and only the password for an account not linked", async () => {
    server(true, true);
    const dialog = await openDialog();
    expect(await within(dialog).findByRole("button", { name: "Confirm with Guild ID" })).toBeTruthy();
    expect(within(dialog).getByText("or with your password")).toBeTruthy();
    expect(within(dialog).getByLabelText("Your password")).toBeTruthy();
  });

  it("shows a password-only dialog to an account the provider does not sign in", async () => {
    const calls = server(true, false);
    const dialog = await openDialog();
    await waitFor(() =>
      expect(
        calls.some((call) => call.method === "GET" && call.path === "/api/auth/oidc/delete-account"),
      ).toBe(true),
    );
    expect(within(dialog).queryByRole("button", { name: "Confirm with Guild ID" })).toBeNull();
    expect(within(dialog).getByLabelText("Your password")).toBeTruthy();
  });

  it("back with a refusal, opens the dialog again and says it in the app's words, not the link's", async () => {
    server(false, true);
    captureOidcReturn(
      { pathname: "/auth/oidc", hash: "#delete_refused=other_account&error=Words+from+a+link" },
      { state: null, replaceState: () => {} },
    );
    render(
      <Providers auth={SIGNED_IN}>
        <YourDataCard />
      </Providers>,
    );
    const dialog = await screen.findByRole("dialog", { name: "Delete your account?" });
    expect(
      await within(dialog).findByText(
        "You signed in at Guild ID as someone other than this account. Nothing was deleted.",
      ),
    ).toBeTruthy();
    expect(dialog.textContent).not.toContain("Words from a link");
  });

  it("lands signed out, told the account is deleted", async () => {
    server(false, true);
    renderApp("/auth/oidc#deleted=1", SIGNED_IN);
    expect(await screen.findByText("Your account and everything in it have been deleted.")).toBeTruthy();
    expect(readStorage("token")).toBeNull();
    expect(window.location.pathname).toBe("/auth");
    expect(window.location.hash).toBe("");
  });
});
