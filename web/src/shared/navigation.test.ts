import { describe, expect, it } from "vitest";
import {
  canonicalUrl,
  navItemForView,
  pathForRoute,
  pathForView,
  type Route,
  resolveRoute,
  restoreView,
  routeFromPath,
  storyPath,
  viewFromPath,
} from "./navigation";
import { RESTORABLE_VIEWS, VIEW_NAMES } from "./views";

describe("URL <-> view mapping", () => {
  it("gives every view its own path and reads each path back to the same view", () => {
    const routes: Route[] = VIEW_NAMES.map((view) => ({
      view,
      storyId: view === "story-interface" ? "a1b2" : null,
    }));
    const paths = routes.map(pathForRoute);
    expect(new Set(paths).size).toBe(VIEW_NAMES.length);
    for (const route of routes) expect(routeFromPath(pathForRoute(route))).toEqual(route);
  });

  it("gives each story its own address under /stories, and reads the id back", () => {
    const id = "5f0c2a9e-8d1b-4c3a-9e7f-1a2b3c4d5e6f";
    expect(storyPath(id)).toBe(`/stories/${id}`);
    expect(pathForRoute({ view: "story-interface", storyId: id })).toBe(`/stories/${id}`);
    expect(routeFromPath(`/stories/${id}`)).toEqual({ view: "story-interface", storyId: id });
    expect(routeFromPath(`/stories/${id}/`)).toEqual({ view: "story-interface", storyId: id });
    // An id is kept as written (not lower-cased), and odd characters survive the round trip.
    expect(routeFromPath(storyPath("Odd id/?#"))).toEqual({ view: "story-interface", storyId: "Odd id/?#" });
    expect(routeFromPath("/stories")).toEqual({ view: "stories", storyId: null });
    expect(routeFromPath("/stories/a/b")).toBeNull();
    expect(routeFromPath("/stories/%E0%A4%A")).toBeNull();
    // The story interface without a story has no address of its own: the list's.
    expect(pathForRoute({ view: "story-interface", storyId: null })).toBe("/stories");
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
    expect(viewFromPath("/story")).toBeNull();
  });

  it("keeps the query and hash only when the address already names the view", () => {
    const at = (view: Route["view"], storyId: string | null = null): Route => ({ view, storyId });
    const link = { pathname: "/verify-email", search: "?token=abc", hash: "" };
    expect(canonicalUrl(at("email-verification"), link)).toBe("/verify-email?token=abc");
    expect(canonicalUrl(at("landing"), { pathname: "/", search: "", hash: "#gallery" })).toBe("/#gallery");
    expect(canonicalUrl(at("auth"), { pathname: "/studio", search: "?x=1", hash: "#y" })).toBe("/auth");
    const story = { pathname: "/stories/s1", search: "?x=1", hash: "" };
    expect(canonicalUrl(at("story-interface", "s1"), story)).toBe("/stories/s1?x=1");
    expect(canonicalUrl(at("story-interface", "s2"), story)).toBe("/stories/s2");
  });
});

describe("restore rule: only stories, studio, chat, library, subscription and news come back", () => {
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
    // The main chat has its own item now (Free play).
    expect(navItemForView("chat", "library")).toBe("chat");
    expect(navItemForView("unknown" as never, "library")).toBe("library");
    expect(navItemForView("landing", "nonsense")).toBe("stories");
    expect(navItemForView("landing", null)).toBe("stories");
    expect(navItemForView("story-interface", "news")).toBe("stories");
  });
});

describe("view at load", () => {
  const signedOut = (pathname: string, storedView: string | null = null) =>
    resolveRoute({ pathname, isAuthenticated: false, storedView }).view;
  const signedIn = (pathname: string, storedView: string | null = null) =>
    resolveRoute({ pathname, isAuthenticated: true, storedView }).view;

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
    expect(signedOut("/stories/s1")).toBe("auth");
    expect(resolveRoute({ pathname: "/stories/s1", isAuthenticated: false, storedView: null })).toEqual({
      view: "auth",
      storyId: null,
    });
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

  it("opens the story a URL names (reload, bookmark, link, back or forward), whatever view was stored", () => {
    expect(resolveRoute({ pathname: "/stories/s1", isAuthenticated: true, storedView: "studio" })).toEqual({
      view: "story-interface",
      storyId: "s1",
    });
  });

  it("never restores the story interface from storage: without a story in the URL, stories", () => {
    expect(signedIn("/", "story-interface")).toBe("stories");
    expect(signedIn("/story", "story-interface")).toBe("stories");
  });
});
