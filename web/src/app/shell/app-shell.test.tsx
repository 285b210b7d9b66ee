import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { json, mockFetch } from "../../test/mock-fetch";
import { renderApp, SIGNED_IN } from "../../test/render-app";
import { SIDEBAR_EVENT, type SidebarStateDetail, sidebarMargin } from "./use-sidebar";
import { avatarLetter } from "./user-avatar";

const verifyAnswer = (credits = 15) =>
  json({
    valid: true,
    user_id: "u1",
    email: "ada@example.com",
    username: "ada",
    email_verified: true,
    credits_remaining: credits,
    created_at: "2025-01-01T00:00:00.000Z",
  });

async function renderShell(url = "/stories", credits = 15) {
  const calls = mockFetch(({ path }) =>
    path === "/api/user/verify" ? verifyAnswer(credits) : json({ detail: "Not found" }, 404),
  );
  const events: SidebarStateDetail[] = [];
  const listener = (event: CustomEvent<SidebarStateDetail>) => events.push(event.detail);
  window.addEventListener(SIDEBAR_EVENT, listener);
  renderApp(url, SIGNED_IN);
  await screen.findByRole("navigation", { name: "Main" });
  return { calls, events, stop: () => window.removeEventListener(SIDEBAR_EVENT, listener) };
}

const nav = () => screen.getByRole("navigation", { name: "Main" });
const main = () => screen.getByRole("main");

describe("app shell", () => {
  it("shows the wordmark, the balance, one account menu (no second Logout) and the sidebar items", async () => {
    await renderShell();
    const bar = screen.getByRole("banner");
    expect(within(bar).getByText("Storyverse")).toBeTruthy();
    expect(await within(bar).findByRole("button", { name: "15 credits" })).toBeTruthy();
    // The user and Logout are in the avatar menu only: the bar does not repeat them.
    expect(within(bar).queryByText("ada")).toBeNull();
    expect(within(bar).queryByRole("button", { name: "Logout" })).toBeNull();
    expect(within(bar).getByRole("button", { name: "Account menu" }).textContent).toBe("A");
    expect(
      within(nav())
        .getAllByRole("button")
        .map((b) => b.textContent),
    ).toEqual(["Stories", "Free play", "Studio", "Gallery", "Credits", "Updates"]);
    expect(main().className).toContain("pt-[65px]");
  });

  it("shows an unlimited balance as ∞ and opens credit management from it", async () => {
    await renderShell("/stories", -1);
    const balance = await screen.findByRole("button", { name: "Unlimited credits" });
    fireEvent.click(balance);
    expect(await screen.findByRole("heading", { level: 1, name: "Manage Credits" })).toBeTruthy();
    expect(window.location.pathname).toBe("/subscription");
  });

  it("is collapsed by default, remembers the state under sidebarState and broadcasts the margin", async () => {
    const { events, stop } = await renderShell();
    expect(main().className).toContain("md:ms-16");
    expect(events.at(-1)).toEqual({ collapsed: true, margin: 64 });
    expect(localStorage.getItem("sidebarState")).toBe("collapsed");

    fireEvent.click(screen.getByRole("button", { name: "Expand sidebar" }));
    expect(main().className).toContain("md:ms-64");
    expect(events.at(-1)).toEqual({ collapsed: false, margin: 256 });
    expect(localStorage.getItem("sidebarState")).toBe("expanded");
    stop();
  });

  it("restores an expanded sidebar", async () => {
    localStorage.setItem("sidebarState", "expanded");
    const { events, stop } = await renderShell();
    expect(screen.getByRole("button", { name: "Collapse sidebar" }).getAttribute("aria-expanded")).toBe(
      "true",
    );
    expect(events.at(-1)).toEqual({ collapsed: false, margin: 256 });
    stop();
  });

  it("keeps no margin on a phone, where the sidebar is a drawer", () => {
    expect(sidebarMargin(true, false)).toBe(0);
    expect(sidebarMargin(false, false)).toBe(0);
    expect(sidebarMargin(true, true)).toBe(64);
    expect(sidebarMargin(false, true)).toBe(256);
  });

  it("navigates from the sidebar, ignoring the current item and clicks while navigating", async () => {
    await renderShell("/news");
    await screen.findByRole("heading", { level: 1, name: "Updates & News" });
    const pushState = vi.spyOn(window.history, "pushState");
    fireEvent.click(within(nav()).getByRole("button", { name: "Updates" }));
    expect(pushState).not.toHaveBeenCalled();

    // Two choices in a row: the second arrives while the first view is still loading and is ignored.
    fireEvent.click(within(nav()).getByRole("button", { name: "Gallery" }));
    expect(main().getAttribute("aria-busy")).toBe("true");
    fireEvent.click(within(nav()).getByRole("button", { name: "Studio" }));
    expect(await screen.findByRole("heading", { level: 1, name: "Your Media Gallery" })).toBeTruthy();
    expect(pushState.mock.calls.map((call) => call[2])).toEqual(["/library"]);
    expect(within(nav()).getByRole("button", { name: "Gallery" }).getAttribute("aria-current")).toBe("page");
    expect(localStorage.getItem("activeNavItem")).toBe("library");
  });

  it("lets the main area scroll except on the chat and story views", async () => {
    await renderShell("/chat");
    await waitFor(() => expect(main().className).toContain("overflow-hidden"));
    fireEvent.click(within(nav()).getByRole("button", { name: "Studio" }));
    await screen.findByRole("heading", { level: 1, name: "Studio" });
    expect(main().className).not.toContain("overflow-hidden");
  });

  it("takes the avatar letter from the email, else the username", () => {
    expect(avatarLetter({ email: "zed@example.com", username: "ada" })).toBe("Z");
    expect(avatarLetter({ email: "", username: "ada" })).toBe("A");
    expect(avatarLetter(null)).toBe("?");
  });

  it("switches the interface to German from the account menu and keeps the choice on the account", async () => {
    const profile = json({
      user_id: "u1",
      email: "ada@example.com",
      username: "ada",
      email_verified: true,
      credits_remaining: 1250,
      created_at: "2025-01-01T00:00:00.000Z",
      locale: "de",
    });
    const calls = mockFetch(({ path, method }) =>
      path === "/api/user/verify"
        ? verifyAnswer(1250)
        : path === "/api/profile" && method === "PATCH"
          ? profile
          : json({ detail: "Not found" }, 404),
    );
    renderApp("/stories", SIGNED_IN);
    await screen.findByRole("navigation", { name: "Main" });
    const bar = screen.getByRole("banner");
    await within(bar).findByRole("button", { name: "1,250 credits" });

    // From the keyboard: open the menu, the Language submenu (ArrowRight), then choose Deutsch.
    fireEvent.keyDown(within(bar).getByRole("button", { name: "Account menu" }), { key: "Enter" });
    const languageItem = await screen.findByRole("menuitem", { name: /^Language/ });
    expect(languageItem.getAttribute("aria-haspopup")).toBe("menu");
    fireEvent.keyDown(languageItem, { key: "ArrowRight" });
    const german = await screen.findByRole("menuitemradio", { name: "Deutsch" });
    expect(screen.getByRole("menuitemradio", { name: "English" }).getAttribute("aria-checked")).toBe("true");
    fireEvent.keyDown(german, { key: "Enter" });

    // The interface is German at once: the sidebar, the balance (plural and the German thousands separator),
    // the tab's title; the choice is kept in this browser and on the account.
    expect(await within(bar).findByRole("button", { name: "1.250 Credits" })).toBeTruthy();
    expect(await screen.findByRole("navigation", { name: "Hauptnavigation" })).toBeTruthy();
    expect(
      within(screen.getByRole("navigation", { name: "Hauptnavigation" }))
        .getAllByRole("button")
        .map((b) => b.textContent),
    ).toEqual(["Geschichten", "Freies Spiel", "Studio", "Galerie", "Credits", "Neuigkeiten"]);
    expect(document.title).toBe("Deine Geschichten · Storyverse");
    expect(localStorage.getItem("language")).toBe("de");
    await waitFor(() =>
      expect(calls.filter((call) => call.path === "/api/profile")).toEqual([
        expect.objectContaining({ method: "PATCH", body: { locale: "de" } }),
      ]),
    );

    // With the pointer: the menu speaks German, and Español is one click away.
    fireEvent.pointerDown(within(bar).getByRole("button", { name: "Kontomenü" }), {
      button: 0,
      ctrlKey: false,
      pointerType: "mouse",
    });
    expect(await screen.findByRole("menuitem", { name: "Credits verwalten" })).toBeTruthy();
    expect(screen.getByRole("menuitem", { name: "Abmelden" })).toBeTruthy();
    fireEvent.click(screen.getByRole("menuitem", { name: /^Sprache/ }));
    expect((await screen.findByRole("menuitemradio", { name: "Deutsch" })).getAttribute("aria-checked")).toBe(
      "true",
    );
    fireEvent.click(screen.getByRole("menuitemradio", { name: "Español" }));
    expect(await within(bar).findByRole("button", { name: "1250 créditos" })).toBeTruthy();
    await waitFor(() => expect(calls.filter((call) => call.path === "/api/profile")).toHaveLength(2));
    expect(calls.at(-1)?.body).toEqual({ locale: "es" });
  });
});
