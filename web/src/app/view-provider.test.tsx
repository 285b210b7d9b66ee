import { act, render, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { useView } from "../shared/view-provider";
import { json, mockFetch } from "../test/mock-fetch";
import { Providers, renderApp, SIGNED_IN } from "../test/render-app";
import { ViewOutlet } from "./view-outlet";

const header = () => screen.getByRole("banner");

describe("view switching", () => {
  it("shows the landing page at / and remembers the view", async () => {
    renderApp("/");
    expect(await screen.findByRole("heading", { level: 1, name: "Start Your Universe Now" })).toBeTruthy();
    expect(localStorage.getItem("currentView")).toBe("landing");
  });

  it("moves to the auth view and back, keeping the URL in step", async () => {
    renderApp("/");
    await screen.findByRole("heading", { level: 1, name: "Start Your Universe Now" });
    act(() => within(header()).getByRole("button", { name: "Get Started" }).click());
    // The auth view is a lazy chunk, transformed on first use: give it room on a busy machine.
    expect(
      await screen.findByRole("heading", { name: "Welcome to Storyverse" }, { timeout: 15_000 }),
    ).toBeTruthy();
    expect(window.location.pathname).toBe("/auth");
    expect(localStorage.getItem("currentView")).toBe("auth");

    act(() => screen.getByRole("button", { name: "Back to Home" }).click());
    expect(await screen.findByRole("heading", { name: "Start Your Universe Now" })).toBeTruthy();
    expect(window.location.pathname).toBe("/");
  });

  it("follows the browser's back and forward buttons", async () => {
    renderApp("/");
    await screen.findByRole("heading", { level: 1, name: "Start Your Universe Now" });
    act(() => within(header()).getByRole("button", { name: "Get Started" }).click());
    await screen.findByRole("heading", { name: "Welcome to Storyverse" });

    act(() => window.history.back());
    await waitFor(() => expect(window.location.pathname).toBe("/"));
    expect(await screen.findByRole("heading", { name: "Start Your Universe Now" })).toBeTruthy();

    act(() => window.history.forward());
    expect(await screen.findByRole("heading", { name: "Welcome to Storyverse" })).toBeTruthy();
  });

  it("sends a signed-out visitor of a signed-in view to the auth view and fixes the URL", async () => {
    renderApp("/studio");
    expect(await screen.findByRole("heading", { name: "Welcome to Storyverse" })).toBeTruthy();
    expect(window.location.pathname).toBe("/auth");
  });

  it("opens email verification from /verify-email, keeps the token until it is spent", async () => {
    let answer: (response: Response) => void = () => {};
    const calls = mockFetch(() => new Promise<Response>((resolve) => (answer = resolve)));
    renderApp("/verify-email?token=abc123");
    expect(await screen.findByRole("heading", { name: "Verifying your email" })).toBeTruthy();
    expect(window.location.pathname + window.location.search).toBe("/verify-email?token=abc123");
    expect(calls.map((call) => call.path)).toEqual(["/api/verify-email/abc123"]);

    await act(async () =>
      answer(json({ success: true, message: "Email verified successfully! You can now log in." })),
    );
    expect(await screen.findByText("Email verified successfully! You can now log in.")).toBeTruthy();
    expect(window.location.pathname + window.location.search).toBe("/verify-email");
  });

  it("opens the pending verification screen without a token", async () => {
    renderApp("/verify-email");
    expect(await screen.findByRole("heading", { name: "Check Your Email" })).toBeTruthy();
  });

  it("restores the last signed-in view and its nav item on reload", async () => {
    localStorage.setItem("currentView", "library");
    localStorage.setItem("activeNavItem", "library");
    renderApp("/", SIGNED_IN);
    expect(await screen.findByRole("heading", { name: "Your Media Gallery" })).toBeTruthy();
    expect(window.location.pathname).toBe("/library");
    expect(localStorage.getItem("activeNavItem")).toBe("library");
  });

  it("shows stories when the stored view is not one to restore", async () => {
    localStorage.setItem("currentView", "story-interface");
    renderApp("/", SIGNED_IN);
    expect(await screen.findByRole("heading", { name: "Your Stories" })).toBeTruthy();
    expect(window.location.pathname).toBe("/stories");
  });

  it("shows a left panel and an empty canvas for an unknown view, until the next move", async () => {
    let navigate: (view: string) => void = () => {};
    function Mover() {
      navigate = useView().navigate;
      return null;
    }
    render(
      <Providers auth={SIGNED_IN}>
        <Mover />
        <ViewOutlet />
      </Providers>,
    );
    await screen.findByRole("heading", { name: "Your Stories" });
    act(() => navigate("no-such-view"));
    expect(await screen.findByText("No Image Yet")).toBeTruthy();
    expect(screen.getByRole("complementary")).toBeTruthy();
    expect(document.title).toBe("Storyverse");

    act(() => screen.getByRole("button", { name: "Go to Your Stories" }).click());
    expect(await screen.findByRole("heading", { name: "Your Stories" })).toBeTruthy();
    expect(screen.queryByText("No Image Yet")).toBeNull();
  });
});

describe("a story's address", () => {
  function Shown() {
    const { view, storyId, activeNavItem, navigate } = useView();
    return (
      <>
        <p data-testid="shown">{`${view} ${storyId ?? "-"} ${activeNavItem}`}</p>
        <button type="button" onClick={() => navigate("story-interface", { storyId: "s 2" })}>
          Open s 2
        </button>
      </>
    );
  }

  it("opens the story interface with the id in the path, and moves to another story's address", async () => {
    window.history.replaceState(null, "", "/stories/s1");
    render(
      <Providers auth={SIGNED_IN}>
        <Shown />
      </Providers>,
    );
    expect(screen.getByTestId("shown").textContent).toBe("story-interface s1 stories");
    act(() => screen.getByRole("button", { name: "Open s 2" }).click());
    await waitFor(() => expect(screen.getByTestId("shown").textContent).toBe("story-interface s 2 stories"));
    expect(window.location.pathname).toBe("/stories/s%202");
    expect(localStorage.getItem("currentView")).toBe("story-interface");

    act(() => window.history.back());
    await waitFor(() => expect(screen.getByTestId("shown").textContent).toBe("story-interface s1 stories"));
  });
});

describe("theme toggle", () => {
  it("flips the theme on <html> and stores the choice", async () => {
    renderApp("/");
    await screen.findByRole("button", { name: "Toggle theme" });
    // jsdom has no matchMedia: the product is dark-first.
    expect(document.documentElement.classList.contains("dark")).toBe(true);
    act(() => screen.getByRole("button", { name: "Toggle theme" }).click());
    expect(document.documentElement.classList.contains("dark")).toBe(false);
    expect(localStorage.getItem("theme")).toBe("light");
  });
});
