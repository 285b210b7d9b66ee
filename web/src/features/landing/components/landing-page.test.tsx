import { act, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { renderApp } from "../../../test/render-app";

describe("the landing page's first-use actions", () => {
  it.each([
    [
      "the hero's Create Your First Story",
      () => screen.getByRole("button", { name: /Create Your First Story/ }),
    ],
    [
      "the footer's Create your account",
      () => within(screen.getByRole("contentinfo")).getByRole("button", { name: /Create your account/ }),
    ],
  ])("%s opens the register form, not sign-in", async (_name, action) => {
    renderApp("/");
    act(() => action().click());
    // The auth view is a lazy chunk, transformed on first use: give it room on a busy machine.
    expect(
      await screen.findByRole("heading", { name: "Create your account" }, { timeout: 15_000 }),
    ).toBeTruthy();
    expect(screen.getByLabelText("Confirm password")).toBeTruthy();
    expect(screen.queryByRole("heading", { name: "Welcome to Storyverse" })).toBeNull();
    expect(window.location.pathname).toBe("/auth");
  });

  it("leaves Get Started in the header on the sign-in form, for returning readers", async () => {
    renderApp("/");
    act(() => within(screen.getByRole("banner")).getByRole("button", { name: "Get Started" }).click());
    expect(
      await screen.findByRole("heading", { name: "Welcome to Storyverse" }, { timeout: 15_000 }),
    ).toBeTruthy();
  });
});
