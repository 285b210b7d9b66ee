import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { apiRequest } from "../lib/api-client";
import { narrationSnapshot, readLiveSentence, startLiveReading } from "../shared/voice/narration-player";
import { type FetchCall, json, mockFetch } from "../test/mock-fetch";
import { renderApp, SIGNED_IN, TEST_TOKEN } from "../test/render-app";

const HERO = { level: 1, name: "Start Your Universe Now" } as const;

const verifyAnswer = (credits: number) =>
  json({
    valid: true,
    user_id: "u1",
    email: "ada@example.com",
    username: "ada",
    email_verified: true,
    credits_remaining: credits,
    created_at: "2025-01-01T00:00:00.000Z",
  });

function server(routes: Record<string, (call: FetchCall) => Response | Promise<Response>>) {
  return mockFetch((call) => {
    const route = routes[`${call.method} ${call.path}`];
    return route ? route(call) : json({ detail: "Not found" }, 404);
  });
}

const expired = () => json({ detail: "Your session has expired. Please log in again." }, 401);

function storeExtras() {
  localStorage.setItem("currentView", "library");
  localStorage.setItem("activeNavItem", "library");
  localStorage.setItem("studio_messages", JSON.stringify([{ id: "m1", role: "user" }]));
}

describe("startup", () => {
  it("restores a stored session and view, then refreshes the user from /api/user/verify", async () => {
    const calls = server({ "GET /api/user/verify": () => verifyAnswer(42.5) });
    localStorage.setItem("currentView", "news");
    renderApp("/", SIGNED_IN);
    expect(await screen.findByRole("heading", { level: 1, name: "Updates & News" })).toBeTruthy();
    expect(await screen.findByRole("button", { name: "42.5 credits" })).toBeTruthy();
    expect(JSON.parse(localStorage.getItem("user") ?? "{}").credits_remaining).toBe(42.5);
    expect(calls[0]?.headers.Authorization).toBe(`Bearer ${TEST_TOKEN}`);
  });

  it("needs both a token and a user to restore anything", async () => {
    localStorage.setItem("token", "orphan");
    renderApp("/stories");
    expect(await screen.findByRole("heading", { name: "Welcome to Storyverse" })).toBeTruthy();
  });

  it("logs out with 'Session expired. Please log in again.' when the session is dead", async () => {
    const calls = server({ "GET /api/user/verify": expired });
    storeExtras();
    renderApp("/", SIGNED_IN);
    expect(await screen.findByText("Session expired. Please log in again.")).toBeTruthy();
    expect(await screen.findByRole("heading", HERO)).toBeTruthy();
    expect(window.location.pathname).toBe("/");
    expect(localStorage.getItem("token")).toBeNull();
    expect(localStorage.getItem("user")).toBeNull();
    expect(localStorage.getItem("activeNavItem")).toBeNull();
    expect(localStorage.getItem("studio_messages")).toBeNull();
    expect(localStorage.getItem("currentView")).toBe("landing");
    // The server already ended it: no logout request.
    expect(calls.some((call) => call.path === "/api/logout")).toBe(false);
  });

  it("keeps the session on the return from payment", async () => {
    server({ "GET /api/user/verify": expired });
    renderApp("/?payment=success&session_id=cs_test_1", SIGNED_IN);
    // The payment return opens the Credits page.
    expect(await screen.findByRole("heading", { level: 1, name: "Manage Credits" })).toBeTruthy();
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(screen.queryByText("Session expired. Please log in again.")).toBeNull();
    expect(localStorage.getItem("token")).toBe(TEST_TOKEN);
  });

  it("keeps the session when the server cannot be reached", async () => {
    renderApp("/stories", SIGNED_IN);
    expect(await screen.findByRole("heading", { level: 1, name: "Your Stories" })).toBeTruthy();
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(localStorage.getItem("token")).toBe(TEST_TOKEN);
  });

  it("logs out when any later request is refused with 401", async () => {
    server({ "GET /api/user/verify": () => verifyAnswer(15), "GET /api/stories": expired });
    renderApp("/stories", SIGNED_IN);
    await screen.findByRole("button", { name: "15 credits" });
    await act(async () => {
      await apiRequest("/api/stories", { schema: { parse: (data: unknown) => data } }).catch(() => {});
    });
    expect(await screen.findByText("Session expired. Please log in again.")).toBeTruthy();
    expect(await screen.findByRole("heading", HERO)).toBeTruthy();
  });
});

/** Logout lives in the avatar menu (one place for the account): open it from the keyboard and choose it. */
async function logOutFromMenu() {
  fireEvent.keyDown(within(screen.getByRole("banner")).getByRole("button", { name: "Account menu" }), {
    key: "Enter",
  });
  fireEvent.click(await screen.findByRole("menuitem", { name: "Logout" }));
}

describe("logout", () => {
  it("ends the session on the server, then forgets token, user, view, nav and studio messages", async () => {
    const calls = server({
      "GET /api/user/verify": () => verifyAnswer(15),
      "POST /api/logout": () => json({ success: true }),
    });
    storeExtras();
    renderApp("/", SIGNED_IN);
    await screen.findByRole("heading", { level: 1, name: "Your Media Gallery" });
    await logOutFromMenu();
    expect(await screen.findByRole("heading", HERO)).toBeTruthy();
    const logout = calls.find((call) => call.path === "/api/logout");
    expect(logout).toMatchObject({ method: "POST", headers: { Authorization: `Bearer ${TEST_TOKEN}` } });
    expect(localStorage.getItem("token")).toBeNull();
    expect(localStorage.getItem("user")).toBeNull();
    expect(localStorage.getItem("activeNavItem")).toBeNull();
    expect(localStorage.getItem("studio_messages")).toBeNull();
    expect(localStorage.getItem("currentView")).toBe("landing");
    expect(window.location.pathname).toBe("/");
  });

  it("stops a story being read aloud", async () => {
    server({
      "GET /api/user/verify": () => verifyAnswer(15),
      "POST /api/logout": () => json({ success: true }),
      "POST /api/stories/s1/speech/live": () =>
        new Response(new Uint8Array([82, 73, 70, 70]), { headers: { "Content-Type": "audio/wav" } }),
    });
    vi.stubGlobal(
      "URL",
      Object.assign(URL, { createObjectURL: vi.fn(() => "blob:s"), revokeObjectURL: vi.fn() }),
    );
    const play = vi.spyOn(HTMLMediaElement.prototype, "play").mockImplementation(() => Promise.resolve());
    const pause = vi.spyOn(HTMLMediaElement.prototype, "pause").mockImplementation(() => {});
    renderApp("/stories", SIGNED_IN);
    await screen.findByRole("heading", { level: 1, name: "Your Stories" });
    startLiveReading("s1", "local-1");
    readLiveSentence("local-1", "The rain glows.");
    await waitFor(() => expect(narrationSnapshot().status).toBe("playing"));
    expect(play).toHaveBeenCalledTimes(1);
    await logOutFromMenu();
    expect(await screen.findByRole("heading", HERO)).toBeTruthy();
    expect(pause).toHaveBeenCalled();
    expect(narrationSnapshot()).toMatchObject({ status: "idle", messageId: null });
    vi.restoreAllMocks();
  });

  it("forgets the local session even when the server cannot be told", async () => {
    server({
      "GET /api/user/verify": () => verifyAnswer(15),
      "POST /api/logout": () => {
        throw new TypeError("Failed to fetch");
      },
    });
    renderApp("/stories", SIGNED_IN);
    await screen.findByRole("heading", { level: 1, name: "Your Stories" });
    await logOutFromMenu();
    expect(await screen.findByRole("heading", HERO)).toBeTruthy();
    expect(localStorage.getItem("token")).toBeNull();
  });
});

describe("sign in", () => {
  it("stores the token and the user, forgets the pending account and opens stories", async () => {
    server({
      "GET /api/health": () => json({ status: "ok" }),
      "POST /api/login": () =>
        json({
          access_token: "fresh",
          token_type: "bearer",
          user_id: "u9",
          email: "grace@example.com",
          username: "grace",
          requires_verification: false,
          email_verified: true,
          credits_remaining: 15,
        }),
      "GET /api/user/verify": () => verifyAnswer(15),
    });
    sessionStorage.setItem(
      "pendingUser",
      JSON.stringify({ email: "grace@example.com", username: "grace", credits_remaining: 15 }),
    );
    renderApp("/auth");
    fireEvent.change(await screen.findByLabelText("Email or username"), { target: { value: "grace" } });
    fireEvent.change(screen.getByLabelText("Password", { exact: true }), { target: { value: "secret1" } });
    fireEvent.click(screen.getByRole("button", { name: "Continue" }));
    expect(await screen.findByRole("heading", { level: 1, name: "Your Stories" })).toBeTruthy();
    expect(window.location.pathname).toBe("/stories");
    expect(localStorage.getItem("token")).toBe("fresh");
    expect(JSON.parse(localStorage.getItem("user") ?? "{}")).toEqual({
      id: "u9",
      email: "grace@example.com",
      username: "grace",
      credits_remaining: 15,
    });
    expect(sessionStorage.getItem("pendingUser")).toBeNull();
  });

  it("keeps an unverified account in session storage and shows the verification screen", async () => {
    server({
      "GET /api/health": () => json({ status: "ok" }),
      "POST /api/login": () =>
        json({
          access_token: null,
          token_type: "bearer",
          user_id: "u9",
          email: "grace@example.com",
          username: "grace",
          requires_verification: true,
          email_verified: false,
          credits_remaining: 15,
        }),
    });
    renderApp("/auth");
    fireEvent.change(await screen.findByLabelText("Email or username"), { target: { value: "grace" } });
    fireEvent.change(screen.getByLabelText("Password", { exact: true }), { target: { value: "secret1" } });
    fireEvent.click(screen.getByRole("button", { name: "Continue" }));
    expect(await screen.findByRole("heading", { name: "Check Your Email" })).toBeTruthy();
    expect(screen.getByText("grace@example.com")).toBeTruthy();
    await waitFor(() => expect(screen.getByText(/^Email verification required/)).toBeTruthy());
    expect(JSON.parse(sessionStorage.getItem("pendingUser") ?? "null")).toEqual({
      email: "grace@example.com",
      username: "grace",
      credits_remaining: 15,
    });
    expect(localStorage.getItem("token")).toBeNull();
  });
});
