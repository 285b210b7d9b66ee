import { act, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { setLanguage } from "../../../i18n/i18n";
import { type FetchCall, json, mockFetch } from "../../../test/mock-fetch";
import { Providers } from "../../../test/render-app";
import { AuthScreen, type AuthScreenProps } from "./auth-screen";

const authAnswer = (patch: Record<string, unknown> = {}) =>
  json({
    access_token: "tok",
    token_type: "bearer",
    user_id: "u1",
    email: "ada@example.com",
    username: "ada",
    requires_verification: false,
    email_verified: true,
    credits_remaining: 15,
    ...patch,
  });

type Route = (call: FetchCall) => Response | Promise<Response>;

function server(routes: Record<string, Route> = {}) {
  return mockFetch((call) => {
    const route = Object.entries(routes).find(([prefix]) => call.path.startsWith(prefix));
    if (route) return route[1](call);
    if (call.path === "/api/health") return json({ status: "ok" });
    if (call.path.startsWith("/api/check-")) return json({ available: true });
    return json({ detail: "Not found" }, 404);
  });
}

function renderScreen(props: Partial<AuthScreenProps> = {}) {
  const handlers = {
    onSignedIn: vi.fn<AuthScreenProps["onSignedIn"]>(),
    onVerificationRequired: vi.fn<AuthScreenProps["onVerificationRequired"]>(),
    onForgotPassword: vi.fn<AuthScreenProps["onForgotPassword"]>(),
    onBackToHome: vi.fn<AuthScreenProps["onBackToHome"]>(),
  };
  render(
    <Providers>
      <AuthScreen {...handlers} {...props} />
    </Providers>,
  );
  return handlers;
}

const type = (label: string, value: string) =>
  fireEvent.change(screen.getByLabelText(label, { exact: true }), { target: { value } });
const submit = (name: string) => fireEvent.click(screen.getByRole("button", { name }));

function fillRegister(
  values: Partial<Record<"Username" | "Email" | "Password" | "Confirm password", string>>,
) {
  for (const [label, value] of Object.entries(values)) type(label, value);
}

describe("auth screen", () => {
  it("signs in with an email or username and hands over the session", async () => {
    const calls = server({ "/api/login": () => authAnswer() });
    const { onSignedIn } = renderScreen();
    expect(screen.getByRole("heading", { name: "Welcome to Storyverse" })).toBeTruthy();
    type("Email or username", " ada ");
    type("Password", "secret1");
    submit("Continue");
    await waitFor(() =>
      expect(onSignedIn).toHaveBeenCalledWith("tok", {
        id: "u1",
        email: "ada@example.com",
        username: "ada",
        credits_remaining: 15,
      }),
    );
    expect(calls.find((call) => call.path === "/api/login")?.body).toEqual({
      email: "ada",
      password: "secret1",
    });
  });

  it("shows the busy labels while a request is on its way", async () => {
    let answer: (response: Response) => void = () => {};
    server({ "/api/": () => new Promise<Response>((resolve) => (answer = resolve)) });
    renderScreen();
    type("Email or username", "ada");
    type("Password", "secret1");
    submit("Continue");
    const busy = await screen.findByRole("button", { name: "Signing in..." });
    expect((busy as HTMLButtonElement).disabled).toBe(true);
    await act(async () => answer(json({ detail: "Incorrect email, username or password." }, 401)));
    expect(await screen.findByText("Incorrect email, username or password.")).toBeTruthy();
    expect(screen.getByRole("button", { name: "Continue" })).toBeTruthy();

    fireEvent.click(screen.getByRole("button", { name: "Create one" }));
    fillRegister({
      Username: "ada",
      Email: "ada@example.com",
      Password: "secret1",
      "Confirm password": "secret1",
    });
    submit("Create Account");
    expect(await screen.findByRole("button", { name: "Creating Account..." })).toBeTruthy();
  });

  it("checks the register form with the spec's words before sending anything", () => {
    const calls = server();
    renderScreen();
    fireEvent.click(screen.getByRole("button", { name: "Create one" }));
    submit("Create Account");
    expect(screen.getByRole("alert").textContent).toBe("Please fill in all fields");
    fillRegister({
      Username: "ada",
      Email: "ada@example.com",
      Password: "12345",
      "Confirm password": "12345",
    });
    submit("Create Account");
    expect(screen.getByRole("alert").textContent).toBe("Password must be at least 6 characters");
    fillRegister({ Password: "secret1", "Confirm password": "secret2" });
    submit("Create Account");
    expect(screen.getByRole("alert").textContent).toBe("Passwords do not match");
    expect(calls.filter((call) => call.method === "POST")).toHaveLength(0);
  });

  it("clears fields, errors and availability messages when switching modes", async () => {
    server();
    renderScreen();
    fireEvent.click(screen.getByRole("button", { name: "Create one" }));
    expect(screen.getByRole("heading", { name: "Create your account" })).toBeTruthy();
    fillRegister({ Username: "ada_l", Email: "ada@example.com" });
    expect(await screen.findByText("Username 'ada_l' is available", {}, { timeout: 2_000 })).toBeTruthy();
    expect(await screen.findByText("Email 'ada@example.com' is available")).toBeTruthy();
    submit("Create Account");
    expect(screen.getByRole("alert").textContent).toBe("Please fill in all fields");

    fireEvent.click(screen.getByRole("button", { name: "Sign in" }));
    expect(screen.getByRole("heading", { name: "Welcome to Storyverse" })).toBeTruthy();
    expect((screen.getByLabelText("Email or username") as HTMLInputElement).value).toBe("");
    expect(screen.getByRole("alert").textContent).toBe("");

    fireEvent.click(screen.getByRole("button", { name: "Create one" }));
    expect((screen.getByLabelText("Username") as HTMLInputElement).value).toBe("");
    expect((screen.getByLabelText("Email", { exact: true }) as HTMLInputElement).value).toBe("");
    expect(screen.queryByText(/is available/)).toBeNull();
  });

  it("checks availability in register mode only", async () => {
    const calls = server();
    renderScreen();
    type("Email or username", "ada@example.com");
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(calls.some((call) => call.path.startsWith("/api/check-"))).toBe(false);
  });

  it("sends an unverified sign-in to verification with 'Email verification required'", async () => {
    server({
      "/api/login": () =>
        authAnswer({ access_token: null, requires_verification: true, email_verified: false }),
    });
    const { onVerificationRequired, onSignedIn } = renderScreen();
    type("Email or username", "ada");
    type("Password", "secret1");
    submit("Continue");
    await waitFor(() => expect(onVerificationRequired).toHaveBeenCalled());
    const [pending, notice] = onVerificationRequired.mock.calls[0] ?? [];
    expect(pending).toEqual({ email: "ada@example.com", username: "ada", credits_remaining: 15 });
    expect(notice?.kind).toBe("error");
    expect(notice?.text).toMatch(/^Email verification required/);
    expect(onSignedIn).not.toHaveBeenCalled();
  });

  it("sends a new unverified account to verification with a notice about the email", async () => {
    const calls = server({
      "/api/register": () =>
        authAnswer({ access_token: null, requires_verification: true, email_verified: false }),
    });
    const { onVerificationRequired } = renderScreen();
    fireEvent.click(screen.getByRole("button", { name: "Create one" }));
    fillRegister({
      Username: "ada",
      Email: "ada@example.com",
      Password: "secret1",
      "Confirm password": "secret1",
    });
    submit("Create Account");
    await waitFor(() => expect(onVerificationRequired).toHaveBeenCalled());
    expect(onVerificationRequired.mock.calls[0]?.[1]).toEqual({
      kind: "success",
      text: expect.stringContaining("verification email to ada@example.com"),
    });
    expect(calls.find((call) => call.path === "/api/register")?.body).toEqual({
      email: "ada@example.com",
      username: "ada",
      password: "secret1",
      locale: "en",
    });
  });

  it("treats an answer without an access token as an error", async () => {
    server({ "/api/login": () => authAnswer({ access_token: null }) });
    const { onSignedIn } = renderScreen();
    type("Email or username", "ada");
    type("Password", "secret1");
    submit("Continue");
    expect(await screen.findByText("An error occurred during authentication")).toBeTruthy();
    expect(onSignedIn).not.toHaveBeenCalled();
  });

  it("probes the server when shown and says so when it cannot be reached", async () => {
    const calls = mockFetch(() => {
      throw new TypeError("Failed to fetch");
    });
    renderScreen();
    expect(await screen.findByText(/You seem to be offline/)).toBeTruthy();
    expect(calls[0]?.path).toBe("/api/health");
  });

  it("says Storyverse is unavailable, not that the player is offline, while the server answers 503", async () => {
    server({
      "/api/health": () => json({ detail: "Database unavailable", code: "unavailable" }, 503),
      "/api/login": () =>
        json(
          {
            detail: "Storyverse is unavailable right now. Please try again in a moment.",
            code: "unavailable",
          },
          503,
        ),
    });
    renderScreen();
    const notice = await screen.findByRole("status");
    expect(notice.textContent).toBe("Storyverse is unavailable right now. Please try again in a moment.");
    expect(screen.queryByText(/You seem to be offline/)).toBeNull();
    // A sign-in meanwhile is answered with the same words.
    type("Email or username", "ada");
    type("Password", "secret1");
    submit("Continue");
    expect(await screen.findByRole("alert")).toHaveProperty(
      "textContent",
      "Storyverse is unavailable right now. Please try again in a moment.",
    );
  });

  it("offers the way home and the forgotten-password screen", () => {
    server();
    const { onBackToHome, onForgotPassword } = renderScreen();
    fireEvent.click(screen.getByRole("button", { name: "Forgot password?" }));
    fireEvent.click(screen.getByRole("button", { name: "Back to Home" }));
    expect(onForgotPassword).toHaveBeenCalledOnce();
    expect(onBackToHome).toHaveBeenCalledOnce();
  });
});

describe("the auth screen in another language (decision 0155)", () => {
  const registerAnswer = () =>
    authAnswer({ access_token: null, requires_verification: true, email_verified: false });

  it("speaks German, offers the language picker and signs up in German", async () => {
    await setLanguage("de");
    const calls = server({ "/api/register": registerAnswer });
    const { onVerificationRequired } = renderScreen();
    expect(screen.getByRole("heading", { name: "Willkommen bei Storyverse" })).toBeTruthy();
    expect((screen.getByLabelText("Sprache") as HTMLSelectElement).value).toBe("de");
    expect(screen.getByRole("button", { name: "Passwort vergessen?" })).toBeTruthy();

    fireEvent.click(screen.getByRole("button", { name: "Jetzt registrieren" }));
    expect(screen.getByRole("heading", { name: "Erstelle dein Konto" })).toBeTruthy();
    submit("Konto erstellen");
    expect(screen.getByRole("alert").textContent).toBe("Bitte fülle alle Felder aus");
    // Each field says what it misses, in German, once a send was tried.
    expect(screen.getByText("Wähle einen Benutzernamen")).toBeTruthy();
    for (const [label, value] of [
      ["Benutzername", "ada"],
      ["E-Mail", "ada@example.com"],
      ["Passwort", "secret1"],
      ["Passwort bestätigen", "secret1"],
    ] as const) {
      type(label, value);
    }
    submit("Konto erstellen");
    await waitFor(() => expect(onVerificationRequired).toHaveBeenCalled());
    expect(onVerificationRequired.mock.calls[0]?.[1].text).toBe(
      "Registrierung erfolgreich! Wir haben eine Bestätigungs-E-Mail an ada@example.com geschickt. Öffne den Link darin, um dein Konto zu aktivieren.",
    );
    // The new account's mails are written in the language it signed up in.
    expect(calls.find((call) => call.path === "/api/register")?.body).toEqual({
      email: "ada@example.com",
      username: "ada",
      password: "secret1",
      locale: "de",
    });
  });

  it("sends no locale from a pseudo-language", async () => {
    await setLanguage("en-XA");
    const calls = server({ "/api/register": registerAnswer });
    const { onVerificationRequired } = renderScreen({ initialMode: "register" });
    const field = (name: string) => screen.getByRole("textbox", { name: new RegExp(name) });
    fireEvent.change(field("Ûšéŕñáɱé"), { target: { value: "ada" } });
    fireEvent.change(field("Éɱáîļ"), { target: { value: "ada@example.com" } });
    for (const input of document.querySelectorAll<HTMLInputElement>('input[type="password"]')) {
      fireEvent.change(input, { target: { value: "secret1" } });
    }
    fireEvent.submit(screen.getByRole("form"));
    await waitFor(() => expect(onVerificationRequired).toHaveBeenCalled());
    expect(calls.find((call) => call.path === "/api/register")?.body).toEqual({
      email: "ada@example.com",
      username: "ada",
      password: "secret1",
    });
  });
});

describe("auth slideshow", () => {
  it("shows 5 slides, advances every 5 seconds and jumps from its dots", async () => {
    vi.useFakeTimers();
    server();
    renderScreen();
    const current = () => screen.getByRole("group", { name: /^Slide \d of 5$/ }).getAttribute("aria-label");
    expect(screen.getAllByRole("button", { name: /^Show slide \d/ })).toHaveLength(5);
    expect(current()).toBe("Slide 1 of 5");
    await act(() => vi.advanceTimersByTimeAsync(4_999));
    expect(current()).toBe("Slide 1 of 5");
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(current()).toBe("Slide 2 of 5");
    fireEvent.click(screen.getByRole("button", { name: /^Show slide 5/ }));
    expect(current()).toBe("Slide 5 of 5");
    await act(() => vi.advanceTimersByTimeAsync(5_000));
    expect(current()).toBe("Slide 1 of 5");
  });
});
