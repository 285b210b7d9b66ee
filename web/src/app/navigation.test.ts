import { describe, expect, it } from "vitest";
import {
  canonicalUrl,
  navItemForView,
  pathForView,
  resolvePopStateView,
  resolveStartupView,
  restoreView,
  viewFromPath,
} from "./navigation";
import { RESTORABLE_VIEWS, VIEW_NAMES } from "./views";

describe("URL <-> view mapping", () => {
  it("gives every view its own path and reads each path back to the same view", () => {
    const paths = VIEW_NAMES.map(pathForView);
    expect(new Set(paths).size).toBe(VIEW_NAMES.length);
    for (const view of VIEW_NAMES) expect(viewFromPath(pathForView(view))).toBe(view);
  });

  it("uses / for the landing page and the spec's /verify-email for email verification", () => {
    expect(pathForView("landing")).toBe("/");
    expect(pathForView("auth")).toBe("/auth");
    expect(pathForView("stories")).toBe("/stories");
    expect(pathForView("studio")).toBe("/studio");
    expect(pathForView("email-verification")).toBe("/verify-email");
    expect(viewFromPath("/verify-email")).toBe("email-verification");
  });

  it("tolerates a trailing slash and letter case, and knows nothing of other paths", () => {
    expect(viewFromPath("/studio/")).toBe("studio");
    expect(viewFromPath("/Library")).toBe("library");
    expect(viewFromPath("/nowhere")).toBeNull();
    expect(viewFromPath("/stories/42")).toBeNull();
  });

  it("keeps the query and hash only when the address already names the view", () => {
    const link = { pathname: "/verify-email", search: "?token=abc", hash: "" };
    expect(canonicalUrl("email-verification", link)).toBe("/verify-email?token=abc");
    expect(canonicalUrl("landing", { pathname: "/", search: "", hash: "#gallery" })).toBe("/#gallery");
    expect(canonicalUrl("auth", { pathname: "/studio", search: "?x=1", hash: "#y" })).toBe("/auth");
  });
});

describe("restore rule (spec §2)", () => {
  it.each(RESTORABLE_VIEWS)("restores %s", (view) => {
    expect(restoreView(view)).toBe(view);
  });

  it.each([
    "landing",
    "auth",
    "email-verification",
    "forgot-password",
    "story-interface",
    "bogus",
    "",
    null,
  ])("falls back to stories for %s", (stored) => {
    expect(restoreView(stored)).toBe("stories");
  });

  it("restores the stored nav item only where the view has none of its own", () => {
    expect(navItemForView("studio", "library")).toBe("studio");
    expect(navItemForView("chat", "library")).toBe("library");
    expect(navItemForView("chat", "nonsense")).toBe("stories");
    expect(navItemForView("chat", null)).toBe("stories");
    expect(navItemForView("story-interface", "news")).toBe("stories");
  });
});

describe("view at load", () => {
  const signedOut = (pathname: string, storedView: string | null = null) =>
    resolveStartupView({ pathname, isAuthenticated: false, storedView });
  const signedIn = (pathname: string, storedView: string | null = null) =>
    resolveStartupView({ pathname, isAuthenticated: true, storedView });

  it("shows a signed-out visitor the public view the URL names, else the landing page", () => {
    expect(signedOut("/")).toBe("landing");
    expect(signedOut("/auth")).toBe("auth");
    expect(signedOut("/forgot-password")).toBe("forgot-password");
    expect(signedOut("/nowhere")).toBe("landing");
  });

  it("never restores a signed-in view for a signed-out visitor", () => {
    expect(signedOut("/", "studio")).toBe("landing");
  });

  it("asks a signed-out visitor to sign in for a bookmarked signed-in view", () => {
    expect(signedOut("/studio")).toBe("auth");
    expect(signedOut("/story")).toBe("auth");
  });

  it("opens email verification from /verify-email whoever is signed in", () => {
    expect(signedOut("/verify-email")).toBe("email-verification");
    expect(signedIn("/verify-email", "studio")).toBe("email-verification");
  });

  it("lets a bookmarked signed-in view win over the stored one", () => {
    expect(signedIn("/library", "studio")).toBe("library");
  });

  it("applies the restore rule at / and on the signed-out screens", () => {
    expect(signedIn("/", "news")).toBe("news");
    expect(signedIn("/auth", "chat")).toBe("chat");
    expect(signedIn("/", "landing")).toBe("stories");
    expect(signedIn("/", null)).toBe("stories");
    expect(signedIn("/nowhere", "subscription")).toBe("subscription");
  });

  it("does not reopen a story on reload, but does on back/forward", () => {
    expect(signedIn("/story", "studio")).toBe("stories");
    expect(resolvePopStateView({ pathname: "/story", isAuthenticated: true, storedView: null })).toBe(
      "story-interface",
    );
  });
});
