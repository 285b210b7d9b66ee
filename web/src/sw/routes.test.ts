// The service worker's promises (decision 0139), held by its routing function: it answers page loads (network
// first, the offline page when that fails) and keeps the app's own static files; API answers, media links
// (local signed ones and an S3 store's presigned ones), pages the server renders itself and anything sent
// for one person are never answered by it, so they can never be cached.
import { describe, expect, it } from "vitest";
import { cacheName, isServerPath, mayKeep, type RequestFacts, routeFor } from "./routes";

const ORIGIN = "https://stories.example.org";
const PRECACHED = new Set(["/offline.html", "/offline.css", "/manifest.webmanifest", "/icons/icon-192.png"]);

function request(path: string, init: Partial<Omit<RequestFacts, "headers">> & { headers?: string[] } = {}) {
  const headers = new Set(init.headers ?? []);
  return {
    method: init.method ?? "GET",
    url: path.startsWith("http") ? path : `${ORIGIN}${path}`,
    mode: init.mode ?? "cors",
    headers: { has: (name: string) => headers.has(name) },
  };
}
const route = (path: string, init?: Parameters<typeof request>[1]) =>
  routeFor(request(path, init), ORIGIN, PRECACHED);

describe("the service worker's routes", () => {
  it("never answers an API call, whatever it asks for", () => {
    for (const path of [
      "/api/stories",
      "/api/stories/5f0c2a9e-8d1b-4c3a-9e7f-1a2b3c4d5e6f/messages?limit=30",
      "/api/credit-balance",
      "/api/me",
      "/api/events",
      "/api",
    ]) {
      expect(route(path), path).toBe("network");
      // Not even as a page load (a media link opened in its own tab, a JSON answer opened by hand).
      expect(route(path, { mode: "navigate" }), path).toBe("network");
    }
  });

  it("never answers a media link: the server's signed ones nor an S3 store's presigned ones", () => {
    expect(route("/api/media/u/1/pictures/a.png?exp=1764400000&sig=abc")).toBe("network");
    expect(route("/api/media/u/1/clips/a.mp4?exp=1764400000&sig=abc", { headers: ["range"] })).toBe(
      "network",
    );
    expect(
      route("https://bucket.s3.example.com/u/1/a.png?X-Amz-Signature=abc&X-Amz-Expires=3600", {
        mode: "no-cors",
      }),
    ).toBe("network");
    // Another origin, even for a path that here would be a static file.
    expect(route("https://cdn.example.net/assets/index-abc.js")).toBe("network");
  });

  it("leaves the pages the server renders itself to the server: shared stories, the payment sandbox, metrics", () => {
    for (const path of ["/s/abc123", "/sandbox/checkout/cs_1", "/metrics", "/robots.txt"]) {
      expect(route(path, { mode: "navigate" }), path).toBe("network");
      expect(isServerPath(path), path).toBe(true);
    }
  });

  it("never answers what is sent for one person or changes something", () => {
    expect(route("/assets/index-abc.js", { headers: ["authorization"] })).toBe("network");
    expect(route("/assets/clip-abc.mp4", { headers: ["range"] })).toBe("network");
    for (const method of ["POST", "PUT", "PATCH", "DELETE", "HEAD"]) {
      expect(route("/assets/index-abc.js", { method }), method).toBe("network");
      expect(route("/stories", { method, mode: "navigate" }), method).toBe("network");
    }
  });

  it("answers the app's page loads (from the network, with the offline page when that fails)", () => {
    for (const path of [
      "/",
      "/stories",
      "/stories/5f0c2a9e-8d1b-4c3a-9e7f-1a2b3c4d5e6f",
      "/verify-email?token=t",
    ]) {
      expect(route(path, { mode: "navigate" }), path).toBe("page");
    }
  });

  it("keeps the built files and the offline page's files, and nothing with a query string", () => {
    expect(route("/assets/index-BjPuMG8y.js")).toBe("static");
    expect(route("/assets/index-viwxD_l-.css")).toBe("static");
    expect(route("/assets/castle-dragon-DrENsVBm.svg")).toBe("static");
    expect(route("/offline.html")).toBe("static");
    expect(route("/icons/icon-192.png")).toBe("static");
    expect(route("/manifest.webmanifest")).toBe("static");
    // Not one of the app's files: the worker stays out of it.
    expect(route("/favicon.ico")).toBe("network");
    expect(route("/sw.js")).toBe("network");
    expect(route("/assets/index-BjPuMG8y.js?v=2")).toBe("network");
  });
});

describe("what the worker may keep", () => {
  const answer = (status: number, cacheControl: string | null, type = "basic") => ({
    status,
    type,
    headers: { get: (name: string) => (name === "cache-control" ? cacheControl : null) },
  });

  it("keeps a whole public answer of the app's own origin", () => {
    expect(mayKeep(answer(200, "public, max-age=31536000, immutable"))).toBe(true);
    expect(mayKeep(answer(200, "no-cache"))).toBe(true);
    expect(mayKeep(answer(200, null))).toBe(true);
  });

  it("never keeps a private or not-to-be-stored answer, a part, an error or another origin's answer", () => {
    expect(mayKeep(answer(200, "private, max-age=3600"))).toBe(false);
    expect(mayKeep(answer(200, "no-store"))).toBe(false);
    expect(mayKeep(answer(200, "Private, No-Store"))).toBe(false);
    expect(mayKeep(answer(206, "public, max-age=60"))).toBe(false);
    expect(mayKeep(answer(404, "no-cache"))).toBe(false);
    expect(mayKeep(answer(200, "public", "opaque"))).toBe(false);
    expect(mayKeep(answer(200, "public", "cors"))).toBe(false);
  });

  it("names each version's cache apart, so a new version starts clean", () => {
    expect(cacheName("a1")).not.toBe(cacheName("b2"));
  });
});
