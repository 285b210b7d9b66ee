// The Permissions-Policy header (#39 item 7): every answer, page or API, error or not, refuses the browser
// features the app never uses and lets its own pages use the microphone for voice input.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.cleanup();
});

/** The policy's features as a map: feature -> its allow list ("self", or "" for nobody). */
function features(header: unknown): Map<string, string> {
  return new Map(
    String(header)
      .split(",")
      .map((entry) => entry.trim().split("="))
      .map(([name, list]) => [name!, list!.replace(/[()]/g, "")]),
  );
}

describe("Permissions-Policy", () => {
  it("refuses camera, location, payment and other devices and allows the microphone on every answer", async () => {
    const answers = await Promise.all(
      [
        { method: "GET" as const, url: "/" },
        { method: "GET" as const, url: "/stories" },
        { method: "GET" as const, url: "/api/config" },
        { method: "GET" as const, url: "/api/profile" },
        { method: "GET" as const, url: "/api/no-such-route" },
        { method: "GET" as const, url: "/s/not-a-share-link" },
        { method: "POST" as const, url: "/api/login", payload: { email: "" } },
      ].map((request) => t.app.inject(request)),
    );
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 200, 401, 404, 404, 400]);
    for (const answer of answers) {
      const policy = features(answer.headers["permissions-policy"]);
      // Voice input records from the microphone on the app's own pages, and no frame may.
      expect(policy.get("microphone")).toBe("self");
      for (const denied of ["camera", "geolocation", "payment", "usb", "serial", "display-capture"])
        expect(policy.get(denied), denied).toBe("");
      // What a clip's controls and the share button use stays available to the app itself.
      for (const own of ["fullscreen", "picture-in-picture", "autoplay", "clipboard-write"])
        expect(policy.get(own), own).toBe("self");
    }
  });
});
