// Sign-in by OIDC in the app (decision 0147): the auth view's choices from /api/config, the /auth/oidc
// landing (session, link, refusal) and the logout that ends the provider's session too.
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { type FetchCall, json, mockFetch } from "../../../test/mock-fetch";
import { renderApp } from "../../../test/render-app";

vi.mock("../api/oidc", async (importOriginal) => ({
  ...(await importOriginal<typeof import("../api/oidc")>()),
  visitProvider: vi.fn(() => true),
}));
const { visitProvider } = await import("../api/oidc");

const config = (signIn?: { password: boolean; oidc: { name: string } | null }) =>
  json({
    capabilities: [],
    providers: { text: "offline", image: "offline", video: "offline", transcription: null },
    offline_providers: true,
    ...(signIn && { sign_in: signIn }),
  });

const verifyAnswer = (patch: Record<string, unknown> = {}) =>
  json({
    valid: true,
    user_id: "u7",
    email: "ada@guild.test",
    username: "ada",
    email_verified: true,
    credits_remaining: 15,
    created_at: "2026-01-01T00:00:00.000Z",
    ...patch,
  });

const authAnswer = () =>
  json({
    access_token: "linked-session",
    token_type: "bearer",
    user_id: "u7",
    email: "ada@guild.test",
    username: "ada",
    requires_verification: false,
    email_verified: true,
    credits_remaining: 15,
  });

type Route = (call: FetchCall) => Response | Promise<Response>;

/** `signIn` null: a server without OIDC (its /api/config has no sign_in). */
function server(routes: Record<string, Route>, signIn: Parameters<typeof config>[0] | null = GUILD) {
  return mockFetch((call) => {
    const route = routes[`${call.method} ${call.path}`];
    if (route) return route(call);
    if (call.path === "/api/config") return config(signIn ?? undefined);
    if (call.path === "/api/health") return json({ status: "ok" });
    return json({ detail: "Not found" }, 404);
  });
}

const GUILD = { password: true, oidc: { name: "Guild ID" } };
const STORIES = { level: 1, name: "Your Stories" } as const;

describe("the auth view's choices", () => {
  it("offers 'Sign in with <provider>' beside the password form", async () => {
    server({});
    renderApp("/auth");
    const button = await screen.findByRole("link", { name: "Sign in with Guild ID" });
    expect(button.getAttribute("href")).toBe("/api/auth/oidc/start");
    expect(screen.getByLabelText("Email or username")).toBeTruthy();
    expect(screen.getByRole("button", { name: "Forgot password?" })).toBeTruthy();
    expect(screen.getByText("or with your password")).toBeTruthy();
    // Registering: the provider is offered there too, the divider says what the form is for.
    fireEvent.click(screen.getByRole("button", { name: "Create one" }));
    expect(await screen.findByText("or with an email and password")).toBeTruthy();
    expect(screen.getByRole("link", { name: "Sign in with Guild ID" })).toBeTruthy();
    fireEvent.click(button);
    expect(await screen.findByRole("link", { name: "Opening Guild ID..." })).toBeTruthy();
  });

  it("shows only the provider when passwords are off: no form, no registration, no reset", async () => {
    server({}, { password: false, oidc: { name: "Guild ID" } });
    renderApp("/auth");
    expect(await screen.findByRole("link", { name: "Sign in with Guild ID" })).toBeTruthy();
    expect(screen.queryByLabelText("Email or username")).toBeNull();
    expect(screen.queryByLabelText("Password")).toBeNull();
    expect(screen.queryByRole("button", { name: "Forgot password?" })).toBeNull();
    expect(screen.queryByRole("button", { name: "Create one" })).toBeNull();
    expect(screen.queryByText("or with your password")).toBeNull();
  });

  it("shows no form before the server has said which sign-in it offers", async () => {
    let answer: (response: Response) => void = () => {};
    mockFetch((call) => {
      if (call.path === "/api/config") return new Promise<Response>((resolve) => (answer = resolve));
      if (call.path === "/api/health") return json({ status: "ok" });
      return json({ detail: "Not found" }, 404);
    });
    renderApp("/auth");
    expect(await screen.findByRole("heading", { name: "Welcome to Storyverse" })).toBeTruthy();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(screen.queryByLabelText("Email or username")).toBeNull();
    expect(screen.queryByRole("button", { name: "Create one" })).toBeNull();
    answer(config(GUILD));
    expect(await screen.findByLabelText("Email or username")).toBeTruthy();
    expect(screen.getByRole("link", { name: "Sign in with Guild ID" })).toBeTruthy();
  });

  it("is the password form alone where OIDC is not configured", async () => {
    const calls = server({}, null);
    renderApp("/auth");
    expect(await screen.findByLabelText("Email or username")).toBeTruthy();
    await waitFor(() => expect(calls.some((call) => call.path === "/api/config")).toBe(true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(screen.queryByRole("link", { name: /Sign in with/ })).toBeNull();
  });
});

describe("the /auth/oidc landing", () => {
  it("takes the session out of the address bar, checks whose it is, stores it and opens stories", async () => {
    const calls = server({ "GET /api/user/verify": () => verifyAnswer() });
    renderApp("/auth/oidc#access_token=fresh-session");
    // The fragment is gone at once: the address is the sign-in's while the app checks the token.
    expect(window.location.pathname).toBe("/auth");
    expect(window.location.hash).toBe("");
    expect(await screen.findByRole("heading", STORIES)).toBeTruthy();
    const verify = calls.find((call) => call.path === "/api/user/verify");
    expect(verify?.headers.Authorization).toBe("Bearer fresh-session");
    expect(localStorage.getItem("token")).toBe("fresh-session");
    expect(JSON.parse(localStorage.getItem("user") ?? "{}")).toEqual({
      id: "u7",
      email: "ada@guild.test",
      username: "ada",
      credits_remaining: 15,
    });
    expect(localStorage.getItem("signedInWith")).toBe("oidc");
  });

  it("goes back to the sign-in with the reason when the session does not open", async () => {
    server({ "GET /api/user/verify": () => json({ detail: "Your session has expired." }, 401) });
    renderApp("/auth/oidc#access_token=stale");
    expect(await screen.findByText("Your session has expired.")).toBeTruthy();
    expect(screen.getByRole("link", { name: "Sign in with Guild ID" })).toBeTruthy();
    expect(localStorage.getItem("token")).toBeNull();
  });

  it("links an existing account by its password: a wrong one is refused, the right one signs in", async () => {
    let attempts = 0;
    const calls = server({
      "POST /api/auth/oidc/link": () =>
        ++attempts === 1
          ? json({ detail: "Incorrect email, username or password.", code: "not_authenticated" }, 401)
          : authAnswer(),
      "GET /api/user/verify": () => verifyAnswer(),
    });
    renderApp("/auth/oidc#link=link-token&email=ada%40guild.test");
    expect(window.location.hash).toBe("");
    expect(await screen.findByRole("heading", { name: "Link your Guild ID sign-in" })).toBeTruthy();
    expect(screen.getByText("ada@guild.test")).toBeTruthy();
    const form = screen.getByRole("form", { name: "Link your account" });
    fireEvent.click(within(form).getByRole("button", { name: "Link and sign in" }));
    expect(await screen.findByText("Please enter this account's password.")).toBeTruthy();
    fireEvent.change(within(form).getByLabelText("Password"), { target: { value: "wrong-one" } });
    fireEvent.click(within(form).getByRole("button", { name: "Link and sign in" }));
    expect(await screen.findByText("That is not this account's password. Please try again.")).toBeTruthy();
    fireEvent.change(within(form).getByLabelText("Password"), { target: { value: "right-one" } });
    fireEvent.click(within(form).getByRole("button", { name: "Link and sign in" }));
    expect(await screen.findByRole("heading", STORIES)).toBeTruthy();
    const links = calls.filter((call) => call.path === "/api/auth/oidc/link").map((call) => call.body);
    expect(links).toEqual([
      { token: "link-token", password: "wrong-one" },
      { token: "link-token", password: "right-one" },
    ]);
    expect(localStorage.getItem("token")).toBe("linked-session");
    expect(localStorage.getItem("signedInWith")).toBe("oidc");
  });

  it("cancelling the link leaves the sign-in, with nothing linked", async () => {
    const calls = server({});
    renderApp("/auth/oidc#link=link-token&email=ada%40guild.test");
    fireEvent.click(await screen.findByRole("button", { name: "Cancel" }));
    expect(await screen.findByRole("heading", { name: "Welcome to Storyverse" })).toBeTruthy();
    expect(calls.some((call) => call.path === "/api/auth/oidc/link")).toBe(false);
  });

  it("says a refusal in the app's words, never the fragment's", async () => {
    server({});
    renderApp("/auth/oidc#error=Call%20555-0100%20now&code=forbidden&reason=domain_not_allowed");
    expect(
      await screen.findByText(
        "Signing in with Guild ID is open to some email domains only, and your account's is not one of them.",
      ),
    ).toBeTruthy();
    expect(screen.queryByText(/555-0100/)).toBeNull();
    expect(window.location.hash).toBe("");
  });

  it("says a disabled account is disabled", async () => {
    server({});
    renderApp("/auth/oidc#error=x&code=account_disabled");
    expect(
      await screen.findByText("This account has been disabled. Please contact the site's administrator."),
    ).toBeTruthy();
  });
});

describe("logout of a session begun at the provider", () => {
  it("ends it at the app, forgets it, then visits the provider's end-session page", async () => {
    const calls = server({
      "GET /api/user/verify": () => verifyAnswer(),
      "POST /api/auth/oidc/logout": () =>
        json({ success: true, end_session_url: "https://id.guild.test/session/end?id_token_hint=x" }),
    });
    renderApp("/auth/oidc#access_token=fresh-session");
    await screen.findByRole("heading", STORIES);
    fireEvent.keyDown(within(screen.getByRole("banner")).getByRole("button", { name: "Account menu" }), {
      key: "Enter",
    });
    fireEvent.click(await screen.findByRole("menuitem", { name: "Logout" }));
    await waitFor(() =>
      expect(visitProvider).toHaveBeenCalledWith("https://id.guild.test/session/end?id_token_hint=x"),
    );
    const logout = calls.find((call) => call.path === "/api/auth/oidc/logout");
    expect(logout?.headers.Authorization).toBe("Bearer fresh-session");
    expect(calls.some((call) => call.path === "/api/logout")).toBe(false);
    expect(localStorage.getItem("token")).toBeNull();
    expect(localStorage.getItem("signedInWith")).toBeNull();
  });
});
