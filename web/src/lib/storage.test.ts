import { afterEach, describe, expect, it, vi } from "vitest";
import {
  clearPendingUser,
  readPendingUser,
  readStorage,
  removeStorage,
  writePendingUser,
  writeStorage,
} from "./storage";

afterEach(() => {
  vi.restoreAllMocks();
});

describe("typed local storage", () => {
  it("stores each key under the spec's exact name", () => {
    writeStorage("currentView", "studio");
    writeStorage("activeNavItem", "library");
    writeStorage("sidebarState", "expanded");
    writeStorage("chatMode", "video");
    writeStorage("batchSize", 3);
    writeStorage("token", "t0k3n");
    expect(localStorage.getItem("currentView")).toBe("studio");
    expect(localStorage.getItem("activeNavItem")).toBe("library");
    expect(localStorage.getItem("sidebarState")).toBe("expanded");
    expect(localStorage.getItem("chatMode")).toBe("video");
    expect(localStorage.getItem("batchSize")).toBe("3");
    expect(readStorage("batchSize")).toBe(3);
    expect(readStorage("token")).toBe("t0k3n");
  });

  it("round-trips JSON values and keeps only valid story media states", () => {
    const user = { id: "u1", email: "a@b.co", username: "ada", credits_remaining: 15 };
    writeStorage("user", user);
    expect(readStorage("user")).toEqual(user);

    localStorage.setItem(
      "story_media_states",
      JSON.stringify({
        s1: { image: "/m/1.png", video: null, isVideoMode: false, lastUpdated: "2025-01-01T00:00:00Z" },
        s2: { image: 42 },
      }),
    );
    expect(readStorage("story_media_states")).toEqual({
      s1: { image: "/m/1.png", video: null, isVideoMode: false, lastUpdated: "2025-01-01T00:00:00Z" },
    });
  });

  it("reads junk, out-of-range and missing values as null", () => {
    localStorage.setItem("batchSize", "9");
    localStorage.setItem("chatMode", "poetry");
    localStorage.setItem("user", "{not json");
    expect(readStorage("batchSize")).toBeNull();
    expect(readStorage("chatMode")).toBeNull();
    expect(readStorage("user")).toBeNull();
    expect(readStorage("theme")).toBeNull();
  });

  it("removes a key", () => {
    writeStorage("token", "x");
    removeStorage("token");
    expect(readStorage("token")).toBeNull();
  });

  it("keeps working when storage throws", () => {
    vi.spyOn(Storage.prototype, "getItem").mockImplementation(() => {
      throw new Error("denied");
    });
    vi.spyOn(Storage.prototype, "setItem").mockImplementation(() => {
      throw new Error("quota");
    });
    expect(readStorage("theme")).toBeNull();
    expect(writeStorage("theme", "dark")).toBe(false);
  });
});

describe("pending user (session storage)", () => {
  it("keeps email, username and credits for the tab, and forgets them on request", () => {
    writePendingUser({ email: "ada@example.com", username: "ada", credits_remaining: 15 });
    expect(sessionStorage.getItem("pendingUser")).toBe(
      JSON.stringify({ email: "ada@example.com", username: "ada", credits_remaining: 15 }),
    );
    expect(localStorage.getItem("pendingUser")).toBeNull();
    expect(readPendingUser()).toEqual({ email: "ada@example.com", username: "ada", credits_remaining: 15 });
    clearPendingUser();
    expect(readPendingUser()).toBeNull();
  });

  it("reads junk as nothing", () => {
    sessionStorage.setItem("pendingUser", "{oops");
    expect(readPendingUser()).toBeNull();
    sessionStorage.setItem("pendingUser", JSON.stringify({ email: 1 }));
    expect(readPendingUser()).toBeNull();
  });

  it("stores the Studio's messages under studio_messages", () => {
    writeStorage("studio_messages", [{ id: "m1" }]);
    expect(localStorage.getItem("studio_messages")).toBe('[{"id":"m1"}]');
    localStorage.setItem("studio_messages", '{"not":"a list"}');
    expect(readStorage("studio_messages")).toBeNull();
  });
});
