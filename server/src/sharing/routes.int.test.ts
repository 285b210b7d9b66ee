import { createHash } from "node:crypto";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app";
import { bearer, createUser, freshAddress, type TestUser } from "../../test/factories";
import { fetchMedia, waitForMedia } from "../../test/media";
import { shareLinks } from "../db/schema";
import { SHARED_MEDIA_TTL_SECONDS } from "./service";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.cleanup();
});

const call = (user: TestUser, method: "GET" | "POST" | "DELETE", url: string, payload?: object) =>
  t.app.inject({ method, url, headers: bearer(user.token), ...(payload ? { payload } : {}) });

const anonymous = (url: string, remoteAddress = freshAddress()) =>
  t.app.inject({ method: "GET", url, remoteAddress });

async function storyWithImage(user: TestUser, title = "The Ember Crown") {
  const story = (await call(user, "POST", "/api/stories", { title, context: "A *dragon* kingdom" })).json()
    .story as { id: string };
  const turn = (
    await call(user, "POST", `/api/stories/${story.id}/chat`, {
      prompt: "I climb the tower",
      chat_mode: "image",
    })
  ).json();
  const status = await waitForMedia(
    t,
    user.token,
    `/api/stories/${story.id}/media-status/${turn.message_id}`,
  );
  expect(status.media_generation_completed).toBe(true);
  return story.id;
}

const tokenOf = (url: string) => new URL(url).pathname.replace(/^\/s\//, "");

describe("share links", () => {
  it("lets anyone with the link read the story and its media, and nothing of the account", async () => {
    const owner = await createUser(t);
    const storyId = await storyWithImage(owner);
    const created = await call(owner, "POST", `/api/stories/${storyId}/share`, {});
    expect(created.statusCode).toBe(200);
    const { url } = created.json();
    expect(url).toMatch(/^http:\/\/app\.test\/s\/[A-Za-z0-9_-]{22}$/);
    const token = tokenOf(url);
    // 22 base64url characters carry 132 bits, of which the token's 16 bytes fill 128.
    expect(Buffer.from(token, "base64url")).toHaveLength(16);

    const shared = await anonymous(`/api/shared/${token}`);
    expect(shared.statusCode).toBe(200);
    expect(shared.headers["x-robots-tag"]).toContain("noindex");
    expect(shared.headers["cache-control"]).toBe("no-store");
    const body = shared.json();
    expect(body.story).toMatchObject({ title: "The Ember Crown", context: "A *dragon* kingdom" });
    expect(body.author).toBeNull();
    expect(body.messages.map((m: { role: string }) => m.role)).toEqual(["user", "assistant"]);
    expect(body.messages[0].content).toBe("I climb the tower");
    const image = await fetchMedia(t, body.messages[1].image_url);
    expect(image.status).toBe(200);
    expect(image.type).toMatch(/^image\//);

    // Nothing that identifies the account or its other records travels with the story.
    for (const secret of [owner.email, owner.username, owner.userId, storyId]) {
      expect(shared.body).not.toContain(secret);
    }
  });

  it("shows the username only when the owner opts in, and never the email", async () => {
    const owner = await createUser(t);
    const storyId = await storyWithImage(owner, "Signed tale");
    const { url } = (
      await call(owner, "POST", `/api/stories/${storyId}/share`, { show_username: true })
    ).json();
    const shared = await anonymous(`/api/shared/${tokenOf(url)}`);
    expect(shared.json().author).toBe(owner.username);
    expect(shared.body).not.toContain(owner.email);
  });

  it("keeps only a hash of the token, and a new link retires the old one", async () => {
    const owner = await createUser(t);
    const storyId = await storyWithImage(owner);
    const first = tokenOf((await call(owner, "POST", `/api/stories/${storyId}/share`)).json().url);
    const rows = await t.database.db.select().from(shareLinks);
    const hashes = rows.map((row) => row.tokenHash);
    expect(hashes).toContain(createHash("sha256").update(first).digest("hex"));
    expect(JSON.stringify(rows)).not.toContain(first);

    const second = tokenOf((await call(owner, "POST", `/api/stories/${storyId}/share`)).json().url);
    expect(second).not.toBe(first);
    expect((await anonymous(`/api/shared/${first}`)).statusCode).toBe(404);
    expect((await anonymous(`/api/shared/${second}`)).statusCode).toBe(200);
    expect((await call(owner, "GET", `/api/stories/${storyId}/share`)).json()).toMatchObject({
      url: `http://app.test/s/${second}`,
      show_username: false,
    });
  });

  it("shows the owner the live link again, as often as asked, without breaking it", async () => {
    const owner = await createUser(t);
    const story = (await call(owner, "POST", "/api/stories", { title: "Lantern road", context: "x" })).json()
      .story as { id: string };
    const none = await call(owner, "GET", `/api/stories/${story.id}/share`);
    expect(none.statusCode).toBe(200);
    expect(none.json()).toEqual({
      success: true,
      shared: false,
      url: null,
      created_at: null,
      show_username: false,
    });

    const made = (
      await call(owner, "POST", `/api/stories/${story.id}/share`, { show_username: true })
    ).json();
    for (let i = 0; i < 2; i++) {
      const again = await call(owner, "GET", `/api/stories/${story.id}/share`);
      expect(again.statusCode).toBe(200);
      expect(again.json()).toEqual({
        success: true,
        shared: true,
        url: made.url,
        created_at: made.created_at,
        show_username: true,
      });
    }
    // Seeing it again did not replace it: the link handed out first still reads the story.
    const read = await anonymous(`/api/shared/${tokenOf(made.url)}`);
    expect(read.statusCode).toBe(200);
    expect(read.json().story.title).toBe("Lantern road");

    await call(owner, "DELETE", `/api/stories/${story.id}/share`);
    expect((await anonymous(`/api/shared/${tokenOf(made.url)}`)).statusCode).toBe(404);
    expect((await call(owner, "GET", `/api/stories/${story.id}/share`)).json()).toMatchObject({
      shared: false,
      url: null,
    });
  });

  it("answers a live link made before links could be shown again with no address, still live", async () => {
    const owner = await createUser(t);
    const story = (await call(owner, "POST", "/api/stories", { title: "Old link", context: "x" })).json()
      .story as { id: string };
    const oldToken = "OldRandomTokenAbcdefgh";
    await t.database.db.insert(shareLinks).values({
      userId: owner.userId,
      storyId: story.id,
      tokenHash: createHash("sha256").update(oldToken).digest("hex"),
      createdAt: new Date("2026-01-01T00:00:00Z"),
    });
    const res = await call(owner, "GET", `/api/stories/${story.id}/share`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ url: null, created_at: "2026-01-01T00:00:00.000Z" });
    expect((await anonymous(`/api/shared/${oldToken}`)).statusCode).toBe(200);
  });

  it("stops working the moment it is revoked, as JSON and as a page", async () => {
    const owner = await createUser(t);
    const storyId = await storyWithImage(owner);
    const token = tokenOf((await call(owner, "POST", `/api/stories/${storyId}/share`)).json().url);
    expect((await anonymous(`/s/${token}`)).statusCode).toBe(200);

    const revoked = await call(owner, "DELETE", `/api/stories/${storyId}/share`);
    expect(revoked.statusCode).toBe(200);
    const json = await anonymous(`/api/shared/${token}`);
    expect(json.statusCode).toBe(404);
    expect(json.json().detail).toBe("This shared story does not exist or is no longer shared.");
    const page = await anonymous(`/s/${token}`);
    expect(page.statusCode).toBe(404);
    expect(page.headers["content-type"]).toMatch(/text\/html/);
    expect(page.body).toContain("no longer shared");
    expect(page.body).toContain('name="robots" content="noindex');
    expect(page.body).not.toContain("The Ember Crown");
    expect((await call(owner, "GET", `/api/stories/${storyId}/share`)).json()).toMatchObject({
      shared: false,
      url: null,
    });
  });

  it("answers unknown and malformed tokens with the same plain 404", async () => {
    for (const token of ["AAAAAAAAAAAAAAAAAAAAAA", "short", "../../etc/passwd", "x".repeat(150), "a/b"]) {
      const json = await anonymous(`/api/shared/${encodeURIComponent(token)}`);
      expect(json.statusCode).toBe(404);
      const page = await anonymous(`/s/${encodeURIComponent(token)}`);
      expect(page.statusCode).toBe(404);
      expect(page.body).toContain("no longer shared");
    }
    // A reader whose browser asks for German or Spanish reads the page in it (decision 0155).
    const german = await t.app.inject({
      method: "GET",
      url: "/s/AAAAAAAAAAAAAAAAAAAAAA",
      headers: { "accept-language": "de-DE,de;q=0.9,en;q=0.5" },
      remoteAddress: freshAddress(),
    });
    expect(german.statusCode).toBe(404);
    expect(german.body).toContain('<html lang="de">');
    expect(german.body).toContain("nicht mehr geteilt");
  });

  it("lets only the owner share, see or revoke a story's link", async () => {
    const owner = await createUser(t);
    const stranger = await createUser(t);
    const storyId = await storyWithImage(owner);
    const token = tokenOf((await call(owner, "POST", `/api/stories/${storyId}/share`)).json().url);
    for (const method of ["POST", "GET", "DELETE"] as const) {
      const res = await call(stranger, method, `/api/stories/${storyId}/share`);
      expect(res.statusCode).toBe(404);
    }
    expect((await anonymous(`/api/shared/${token}`)).statusCode).toBe(200);
    const unsigned = await t.app.inject({ method: "POST", url: `/api/stories/${storyId}/share` });
    expect(unsigned.statusCode).toBe(401);
  });

  it("serves a page with link-preview tags, noindex and the app's CSP, inert to the story's words", async () => {
    const owner = await createUser(t);
    const storyId = await storyWithImage(owner, '<script>alert("x")</script>');
    const token = tokenOf((await call(owner, "POST", `/api/stories/${storyId}/share`)).json().url);
    const page = await anonymous(`/s/${token}`);
    expect(page.statusCode).toBe(200);
    expect(page.headers["content-security-policy"]).toContain("script-src 'self'");
    expect(page.headers["x-robots-tag"]).toContain("noindex");
    expect(page.headers["referrer-policy"]).toBe("no-referrer");
    expect(page.body).toContain('<meta name="robots" content="noindex, nofollow" />');
    expect(page.body).toContain(
      '<meta property="og:title" content="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" />',
    );
    expect(page.body).not.toContain('<script>alert("x")');
    expect(page.body).toContain('<meta property="og:description" content="A dragon kingdom" />');
    const image = page.body.match(/<meta property="og:image" content="([^"]+)"/)?.[1];
    expect(image).toBe(`http://app.test/api/shared/${token}/preview.jpg`);
    expect((await fetchMedia(t, new URL(image!).pathname)).status).toBe(200);
    // The web app's own page, so the lazy shared-story view can render it.
    expect(page.body).toContain("<div id=root></div>");
  });

  it("gives no way from a shared picture to the owner's other media, and its media die with the link", async () => {
    const owner = await createUser(t);
    const storyId = await storyWithImage(owner, "Shared");
    await storyWithImage(owner, "Private");
    const token = tokenOf((await call(owner, "POST", `/api/stories/${storyId}/share`)).json().url);
    const body = (await anonymous(`/api/shared/${token}`)).json();
    const imageUrl = body.messages[1].image_url as string;
    // Shared links name a message of the story by its handle on this link, never a storage key (keys carry the
    // owner's id) nor the message's id.
    const handle = body.messages[1].id as string;
    expect(handle).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(imageUrl).toMatch(
      new RegExp(`^/api/shared/${token}/media/${handle}-image\\?exp=\\d+&sig=[0-9a-f]{64}$`),
    );
    expect(JSON.stringify(body)).not.toContain("/api/media/");
    const whole = await fetchMedia(t, imageUrl);
    expect(whole.status).toBe(200);
    expect((await fetchMedia(t, body.story.thumbnail)).status).toBe(200);
    // Served in ranges too (players seek in clips), byte for byte what the whole file holds.
    const part = await t.app.inject({ method: "GET", url: imageUrl, headers: { range: "bytes=8-23" } });
    expect(part.statusCode).toBe(206);
    expect(part.headers["content-range"]).toBe(`bytes 8-23/${whole.body.length}`);
    expect(part.rawPayload.equals(whole.body.subarray(8, 24))).toBe(true);
    const beyond = await t.app.inject({
      method: "GET",
      url: imageUrl,
      headers: { range: `bytes=${whole.body.length}-` },
    });
    expect(beyond.statusCode).toBe(416);

    // The signature is bound to its ref and its link: moved anywhere else it opens nothing.
    const { search } = new URL(imageUrl, "http://x");
    for (const ref of [`${body.messages[0].id}-image`, `${handle}-video`, "cover", "1-image"]) {
      expect((await fetchMedia(t, `/api/shared/${token}/media/${ref}${search}`)).status).toBe(403);
    }
    const other = await storyWithImage(owner, "Also shared");
    const otherToken = tokenOf((await call(owner, "POST", `/api/stories/${other}/share`)).json().url);
    expect((await fetchMedia(t, `/api/shared/${otherToken}/media/${handle}-image${search}`)).status).toBe(
      403,
    );
    expect((await fetchMedia(t, `/api/media/u/${owner.userId}/x.png${search}`)).status).toBe(403);

    await call(owner, "DELETE", `/api/stories/${storyId}/share`);
    expect((await fetchMedia(t, imageUrl)).status).toBe(404);
  });

  it("gives link previews a 1200x630 picture that lives exactly as long as the link", async () => {
    const owner = await createUser(t);
    const storyId = await storyWithImage(owner, "Preview tale");
    const token = tokenOf((await call(owner, "POST", `/api/stories/${storyId}/share`)).json().url);
    const page = await anonymous(`/s/${token}`);
    expect(page.body).toContain('<meta property="og:image:width" content="1200" />');
    expect(page.body).toContain('<meta property="og:image:height" content="630" />');
    const image = new URL(page.body.match(/<meta property="og:image" content="([^"]+)"/)![1]!);
    const first = await fetchMedia(t, image.pathname);
    expect(first.status).toBe(200);
    expect(first.type).toBe("image/jpeg");
    expect(await sharp(first.body).metadata()).toMatchObject({ format: "jpeg", width: 1200, height: 630 });
    const signed = (await anonymous(`/api/shared/${token}`)).json().messages[1].image_url as string;

    // Chat apps fetch previews late: long after the page's signed media links have expired, it still answers.
    t.clock.advance((SHARED_MEDIA_TTL_SECONDS + 3600) * 1000);
    expect((await fetchMedia(t, signed)).status).toBe(403);
    const later = await fetchMedia(t, image.pathname);
    expect(later.status).toBe(200);
    expect(later.body.equals(first.body)).toBe(true);

    // And it dies with the link, at once.
    await call(owner, "DELETE", `/api/stories/${storyId}/share`);
    expect((await fetchMedia(t, image.pathname)).status).toBe(404);
    expect((await fetchMedia(t, `/api/shared/AAAAAAAAAAAAAAAAAAAAAA/preview.jpg`)).status).toBe(404);
  });

  it("limits how often one address may read shared links", async () => {
    const address = freshAddress();
    let last = 0;
    for (let i = 0; i < 121; i += 1) {
      last = (await anonymous("/api/shared/AAAAAAAAAAAAAAAAAAAAAA", address)).statusCode;
    }
    expect(last).toBe(429);
    expect((await anonymous("/api/shared/AAAAAAAAAAAAAAAAAAAAAA")).statusCode).toBe(404);
  });
});

describe("shared pictures at page size", () => {
  // Full-size offline scenes (2048x1536), as the page really gets them.
  let full: TestApp;
  beforeAll(async () => {
    full = await createTestApp({ env: { OFFLINE_MEDIA_SCALE: "1" } });
  });
  afterAll(async () => {
    await full.cleanup();
  });

  it("offers 720 and 1440 px WebPs with srcset, width and height, and preloads the first at high priority", async () => {
    const owner = await createUser(full);
    const headers = bearer(owner.token);
    const story = (
      await full.app.inject({
        method: "POST",
        url: "/api/stories",
        headers,
        payload: { title: "Big pictures" },
      })
    ).json().story as { id: string };
    for (const prompt of ["I climb the tower", "I look down"]) {
      const turn = (
        await full.app.inject({
          method: "POST",
          url: `/api/stories/${story.id}/chat`,
          headers,
          payload: { prompt, chat_mode: "image" },
        })
      ).json();
      const status = await waitForMedia(
        full,
        owner.token,
        `/api/stories/${story.id}/media-status/${turn.message_id}`,
      );
      expect(status.media_generation_completed, JSON.stringify({ turn, status })).toBe(true);
    }
    const { url } = (
      await full.app.inject({ method: "POST", url: `/api/stories/${story.id}/share`, headers, payload: {} })
    ).json();
    const token = tokenOf(url);
    const body = (
      await full.app.inject({ method: "GET", url: `/api/shared/${token}`, remoteAddress: freshAddress() })
    ).json();
    const pictures = body.messages.map((m: { picture: unknown }) => m.picture).filter(Boolean);
    expect(pictures).toHaveLength(2);
    const picture = pictures[0] as { src: string; srcset: string; width: number; height: number };
    expect(picture).toMatchObject({ width: 720, height: 540 });
    const [small, large] = picture.srcset.split(", ").map((entry) => entry.split(" "));
    expect(small).toEqual([picture.src, "720w"]);
    expect(large![1]).toBe("1440w");

    const scene = body.messages.find((m: { image_url: string | null }) => m.image_url);
    const original = await fetchMedia(full, scene.image_url);
    expect(await sharp(original.body).metadata()).toMatchObject({ width: 2048, height: 1536 });
    for (const [src, width] of [
      [picture.src, 720],
      [large![0]!, 1440],
    ] as const) {
      const sized = await fetchMedia(full, src);
      expect(sized.status).toBe(200);
      expect(sized.type).toBe("image/webp");
      expect(await sharp(sized.body).metadata()).toMatchObject({ format: "webp", width });
      expect(sized.body.length).toBeLessThan(original.body.length / 4);
    }
    const odd = await full.app.inject({ method: "GET", url: picture.src.replace("w=720", "w=999") });
    expect(odd.statusCode).toBe(400);
    expect(odd.json().detail).toBeTruthy();

    // The page's HTML starts the first picture before the app's script runs, at high priority.
    const page = await full.app.inject({ method: "GET", url: `/s/${token}`, remoteAddress: freshAddress() });
    const preload = page.body.match(/<link rel="preload" as="image"[^>]*>/)?.[0] ?? "";
    expect(preload).toContain(`imagesrcset="${picture.srcset.replaceAll("&", "&amp;")}"`);
    expect(preload).toContain('imagesizes="(min-width: 768px) 720px, calc(100vw - 2rem)"');
    expect(preload).toContain('fetchpriority="high"');
    expect(page.body.match(/rel="preload" as="image"/g)).toHaveLength(1);
  });
});
