// Editing a picture from the Gallery with the offline painter (issue 45 item 1, decision 0145): each kind makes a
// new item that knows its parent and seed, priced per kind; the details panel shows the lineage; another player's
// picture is a 404 and bad input a 400 with a detail, both with nothing charged.
import { CREDIT_COSTS } from "@storyverse/contract/credits";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app";
import { bearer, createUser, moneyOf, type TestUser } from "../../test/factories";
import { fetchMedia, galleryImage } from "../../test/media";
import { ledgerSum } from "../credits/repo";
import { sweepUnsettledCharges } from "../credits/service";
import type { ImageProvider } from "../providers/types";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.cleanup();
});

const edit = (user: TestUser, id: string, payload: object) =>
  t.app.inject({ method: "POST", url: `/api/media/${id}/edit`, headers: bearer(user.token), payload });

/** A mask of the given size, painted (opaque) in the square left..left+side, top..top+side. */
async function maskDataUrl(width: number, height: number, square = { left: 8, top: 8, side: 16 }) {
  const png = await sharp({ create: { width, height, channels: 4, background: "#00000000" } })
    .composite([
      {
        input: await sharp({
          create: { width: square.side, height: square.side, channels: 4, background: "#ffffffff" },
        })
          .png()
          .toBuffer(),
        left: square.left,
        top: square.top,
      },
    ])
    .png()
    .toBuffer();
  return `data:image/png;base64,${png.toString("base64")}`;
}

const pixels = async (png: Buffer) =>
  await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });

describe("editing a picture offline", () => {
  it("inpaints the brushed square only, as a new item that knows its parent and seed, for its price", async () => {
    const user = await createUser(t);
    const { balance } = moneyOf(t);
    const parent = await galleryImage(t, user.userId, "#3366aa", 64, 48);
    const before = await balance(user);
    const res = await edit(user, parent.id, {
      kind: "inpaint",
      prompt: "a golden moon",
      mask: await maskDataUrl(64, 48),
      seed: 1234,
    });
    expect(res.statusCode, res.body).toBe(200);
    const item = res.json().item;
    expect(item).toMatchObject({
      parent_id: parent.id,
      seed: 1234,
      description: "a golden moon",
      type: "image",
    });
    expect(item.id).not.toBe(parent.id);
    expect(res.json().quota_info.charged).toBe(CREDIT_COSTS.image_inpaint);
    expect(await balance(user)).toBe(before - CREDIT_COSTS.image_inpaint);

    const original = await pixels(
      (await fetchMedia(t, await t.ctx.storage.signedUrl(parent.storageKey))).body,
    );
    const edited = await pixels((await fetchMedia(t, item.url)).body);
    expect([edited.info.width, edited.info.height]).toEqual([64, 48]);
    let changedInside = 0;
    for (let y = 0; y < 48; y++) {
      for (let x = 0; x < 64; x++) {
        const i = (y * 64 + x) * 4;
        const same = edited.data.subarray(i, i + 4).equals(original.data.subarray(i, i + 4));
        if (x >= 8 && x < 24 && y >= 8 && y < 24) changedInside += same ? 0 : 1;
        else expect(same, `pixel ${x},${y} outside the mask`).toBe(true);
      }
    }
    expect(changedInside).toBeGreaterThan(0);

    // The details panel shows the lineage both ways.
    const child = await t.app.inject({
      method: "GET",
      url: `/api/media/${item.id}/details`,
      headers: bearer(user.token),
    });
    expect(child.json()).toMatchObject({ seed: 1234, parent: { id: parent.id } });
    const mother = await t.app.inject({
      method: "GET",
      url: `/api/media/${parent.id}/details`,
      headers: bearer(user.token),
    });
    expect(mother.json().children.map((c: { id: string }) => c.id)).toContain(item.id);
    // And the Gallery's page carries seed and parent_id.
    const page = await t.app.inject({ method: "GET", url: "/api/gallery", headers: bearer(user.token) });
    const listed = page.json().items ?? page.json().media ?? page.json().images;
    expect(JSON.stringify(listed)).toContain(`"parent_id":"${parent.id}"`);
  });

  it("extends the canvas to the left, varies subtly and strongly, and upscales x2", async () => {
    const user = await createUser(t);
    const parent = await galleryImage(t, user.userId, "#55aa33", 80, 60);
    const out = await edit(user, parent.id, { kind: "outpaint", prompt: "more meadow", direction: "left" });
    expect(out.statusCode, out.body).toBe(200);
    const wide = await sharp((await fetchMedia(t, out.json().item.url)).body).metadata();
    expect([wide.width, wide.height]).toEqual([100, 60]);

    const subtle = await edit(user, parent.id, {
      kind: "vary",
      strength: "subtle",
      prompt: "meadow",
      seed: 5,
    });
    const strong = await edit(user, parent.id, {
      kind: "vary",
      strength: "strong",
      prompt: "meadow",
      seed: 5,
    });
    expect([subtle.statusCode, strong.statusCode]).toEqual([200, 200]);
    expect(subtle.json().quota_info.charged).toBe(CREDIT_COSTS.image_vary);
    const a = (await fetchMedia(t, subtle.json().item.url)).body;
    const b = (await fetchMedia(t, strong.json().item.url)).body;
    expect(a.equals(b)).toBe(false);

    const up = await edit(user, parent.id, { kind: "upscale" });
    expect(up.statusCode, up.body).toBe(200);
    expect(up.json().quota_info.charged).toBe(CREDIT_COSTS.image_upscale);
    const big = await sharp((await fetchMedia(t, up.json().item.url)).body).metadata();
    expect([big.width, big.height]).toEqual([160, 120]);
    expect(up.json().item.parent_id).toBe(parent.id);
  });

  it("the same seed repeats an edit; a changed prompt with it paints another", async () => {
    const user = await createUser(t);
    const parent = await galleryImage(t, user.userId, "#884422", 40, 40);
    const mask = await maskDataUrl(40, 40, { left: 0, top: 0, side: 40 });
    const one = await edit(user, parent.id, { kind: "inpaint", prompt: "a castle", mask, seed: 77 });
    const two = await edit(user, parent.id, { kind: "inpaint", prompt: "a castle", mask, seed: 77 });
    const other = await edit(user, parent.id, {
      kind: "inpaint",
      prompt: "a forest at night",
      mask,
      seed: 77,
    });
    const bytes = await Promise.all(
      [one, two, other].map(async (r) => (await fetchMedia(t, r.json().item.url)).body),
    );
    expect(bytes[0]!.equals(bytes[1]!)).toBe(true);
    expect(bytes[0]!.equals(bytes[2]!)).toBe(false);
  });

  it("another player's picture is a 404, and nothing is charged", async () => {
    const owner = await createUser(t);
    const other = await createUser(t);
    const { balance } = moneyOf(t);
    const picture = await galleryImage(t, owner.userId, "#222222");
    const before = await balance(other);
    const res = await edit(other, picture.id, { kind: "upscale" });
    expect(res.statusCode).toBe(404);
    expect(res.json().detail).toBe("This picture is not in your Gallery.");
    expect(await balance(other)).toBe(before);
  });

  it("bad input is a 400 with a detail and costs nothing: a mask of the wrong size, no mask, an unknown kind", async () => {
    const user = await createUser(t);
    const { balance } = moneyOf(t);
    const picture = await galleryImage(t, user.userId, "#123456", 64, 48);
    const before = await balance(user);
    const wrong = await edit(user, picture.id, {
      kind: "inpaint",
      prompt: "x",
      mask: await maskDataUrl(32, 32),
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().detail).toBe("The mask is 32x32; it must be the picture's size, 64x48.");
    const none = await edit(user, picture.id, { kind: "inpaint", prompt: "x" });
    expect(none.statusCode).toBe(400);
    expect(none.json().detail).toMatch(/needs a mask/);
    const unknown = await edit(user, picture.id, { kind: "sharpen" });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().detail).toMatch(/kind must be one of inpaint, outpaint, vary or upscale/);
    expect(await balance(user)).toBe(before);
  });

  it("a process that dies while the painter works leaves its charge to the sweep, refunded once; a delivered edit leaves none", async () => {
    const user = await createUser(t);
    const { balance, refunds } = moneyOf(t);
    const parent = await galleryImage(t, user.userId, "#446688", 32, 32);
    const before = await balance(user);
    const unsettled = async () =>
      (
        await t.database.executeSql("select paid_for from unsettled_charges where user_id = $1", [
          user.userId,
        ])
      ).rows;

    const delivered = await edit(user, parent.id, { kind: "upscale" });
    expect(delivered.statusCode).toBe(200);
    expect(await unsettled()).toHaveLength(0);

    // The painter takes the edit and the process "dies": the request never hears back.
    const painter = t.providers.image;
    let started!: () => void;
    const painting = new Promise<void>((resolve) => {
      started = resolve;
    });
    const dying: ImageProvider = {
      name: painter.name,
      generate: (request) => painter.generate(request),
      editKinds: ["vary"],
      edit: () => {
        started();
        return new Promise(() => {});
      },
    };
    t.providers.image = dying;
    try {
      const hung = edit(user, parent.id, { kind: "vary" });
      const early = await Promise.race([painting.then(() => undefined), hung]);
      expect(early?.body).toBeUndefined();
      expect(await unsettled()).toHaveLength(1);
      expect(await balance(user)).toBe(before - CREDIT_COSTS.image_upscale - CREDIT_COSTS.image_vary);
      const later = new Date(t.clock.now().getTime() + 60 * 60_000);
      // However many sweepers run, the charge is refunded once.
      await Promise.all([1, 2, 3].map(() => sweepUnsettledCharges(t.database.db, later, 15 * 60_000)));
      expect(await refunds(user)).toHaveLength(1);
      expect(await balance(user)).toBe(before - CREDIT_COSTS.image_upscale);
      expect(await ledgerSum(t.database.db, user.userId)).toBe(
        (
          await t.database.executeSql("select balance_tenths from credit_accounts where user_id = $1", [
            user.userId,
          ])
        ).rows[0]!.balance_tenths as number,
      );
    } finally {
      t.providers.image = painter;
    }
  });
});

describe("finding the gallery item behind a picture's URL (a story's picture, decision 0148)", () => {
  const byUrl = (user: TestUser, url: string) =>
    t.app.inject({
      method: "GET",
      url: `/api/media/by-url?url=${encodeURIComponent(url)}`,
      headers: bearer(user.token),
    });

  it("answers the player's item for its URL or its thumbnail's; another player's or an unknown URL is a 404", async () => {
    const owner = await createUser(t);
    const other = await createUser(t);
    const picture = await galleryImage(t, owner.userId, "#228844", 32, 32);
    const url = await t.ctx.storage.signedUrl(picture.storageKey);
    const res = await byUrl(owner, url);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().item).toMatchObject({ id: picture.id, type: "image" });
    if (picture.thumbnailKey) {
      const thumb = await byUrl(owner, await t.ctx.storage.signedUrl(picture.thumbnailKey));
      expect(thumb.json().item.id).toBe(picture.id);
    }
    for (const [user, asked] of [
      [other, url],
      [owner, "https://elsewhere.example/picture.png"],
    ] as const) {
      const refused = await byUrl(user, asked);
      expect(refused.statusCode).toBe(404);
      expect(refused.json().detail).toBe("This picture is not in your Gallery.");
    }
    const empty = await byUrl(owner, "");
    expect(empty.statusCode).toBe(400);
    expect(empty.json().detail).toContain("url");
  });
});
