import { fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { type FetchCall, json, mockFetch } from "../../../test/mock-fetch";
import { Providers, SIGNED_IN } from "../../../test/render-app";
import { makeStory } from "../../../test/story-fixtures";
import { StoriesPage } from "./stories-page";

const lighthouse = {
  id: "the-last-lighthouse",
  title: "The Last Lighthouse",
  tagline: "A keeper, a storm and a ship that should not be there.",
  image_url: "/api/starters/the-last-lighthouse/image",
};
const market = {
  id: "night-market",
  title: "The Night Market",
  tagline: "Trade a memory for anything you want.",
  image_url: "/api/starters/night-market/image",
};
const started = makeStory({ id: "dddddddd-dddd-4ddd-8ddd-dddddddddddd", title: "The Last Lighthouse" });
const verified = {
  user_id: "u1",
  email: "ada@example.com",
  username: "ada",
  email_verified: true,
  credits_remaining: 15,
  created_at: "2026-01-01T00:00:00Z",
  valid: true,
};

function serve(routes: Record<string, (call: FetchCall) => Response>) {
  return mockFetch(
    (call) =>
      routes[`${call.method} ${call.path}`]?.(call) ??
      json({ detail: `unexpected ${call.method} ${call.path}` }, 404),
  );
}

function renderPage() {
  return render(
    <Providers auth={SIGNED_IN}>
      <StoriesPage />
    </Providers>,
  );
}

describe("Start from a scenario", () => {
  it("lists the starters in the empty list with their picture, title and tagline", async () => {
    serve({
      "GET /api/stories": () => json({ success: true, stories: [] }),
      "GET /api/starters": () => json({ success: true, starters: [lighthouse, market] }),
    });
    renderPage();
    const section = await screen.findByRole("region", { name: "Start from a scenario" });
    const cards = await within(section).findAllByRole("button", { name: /^Start “/ });
    expect(cards).toHaveLength(2);
    const first = within(section).getByRole("button", {
      name: "Start “The Last Lighthouse”: A keeper, a storm and a ship that should not be there.",
    });
    expect(first.textContent).toContain("The Last Lighthouse");
    expect(first.textContent).toContain("A keeper, a storm and a ship that should not be there.");
    expect(first.querySelector("img")?.getAttribute("src")).toBe("/api/starters/the-last-lighthouse/image");
  });

  it("starts the chosen scenario and opens its story", async () => {
    const calls = serve({
      "GET /api/stories": () => json({ success: true, stories: [] }),
      "GET /api/starters": () => json({ success: true, starters: [lighthouse, market] }),
      "POST /api/starters/the-last-lighthouse/start": () =>
        json({ success: true, story: started, notes: [] }),
      "GET /api/user/verify": () => json(verified),
      [`GET /api/stories/${started.id}/messages?limit=30`]: () => json({ success: true, messages: [] }),
    });
    renderPage();
    fireEvent.click(await screen.findByRole("button", { name: /^Start “The Last Lighthouse”/ }));
    await waitFor(() => expect(window.location.pathname).toBe(`/stories/${started.id}`));
    expect(calls.filter((call) => call.method === "POST").map((call) => call.path)).toEqual([
      "/api/starters/the-last-lighthouse/start",
    ]);
    expect(window.location.pathname).toBe(`/stories/${started.id}`);
  });

  it("shows the server's reason when a scenario cannot be started", async () => {
    serve({
      "GET /api/stories": () => json({ success: true, stories: [] }),
      "GET /api/starters": () => json({ success: true, starters: [market] }),
      "POST /api/starters/night-market/start": () =>
        json({ detail: "Starter not found", code: "not_found" }, 404),
    });
    renderPage();
    fireEvent.click(await screen.findByRole("button", { name: /^Start “The Night Market”/ }));
    expect(await screen.findByText("Couldn't start “The Night Market”: Starter not found")).toBeTruthy();
    expect(window.location.pathname).not.toMatch(/^\/stories\/./);
  });

  it("is not offered once the player has stories", async () => {
    const calls = serve({
      "GET /api/stories": () => json({ success: true, stories: [makeStory()] }),
      "GET /api/starters": () => json({ success: true, starters: [lighthouse] }),
    });
    renderPage();
    await screen.findByRole("article", { name: "The Lantern Forest" });
    expect(screen.queryByRole("region", { name: "Start from a scenario" })).toBeNull();
    expect(calls.some((call) => call.path === "/api/starters")).toBe(false);
  });
});
