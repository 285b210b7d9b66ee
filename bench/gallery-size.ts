// npx tsx bench/gallery-size.ts: what the Gallery's first screen costs on the wire with 1,000 items
// (DESIGN.md section 8: under 2 MB, thumbnails and never the 2K originals).
//
// It starts the real server (built web app, embedded PGlite in a throwaway folder, offline providers), seeds
// two users with 1,000 media items each, stored as the media service stores them (a 2K original plus its
// webp thumbnail per item; after every 20th image a video whose poster is that scene image, 47 in all),
// opens the Gallery in system Chromium with a cold cache, and sums the encoded bytes of every response
// (headers included) until the network is quiet. The two users differ in their pictures: the offline
// provider's flat illustrations, and photo-like textured images whose thumbnails compress far worse (the
// realistic worst case for real vendors' output).
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium } from "playwright-core";
import sharp from "sharp";
import { loadConfig } from "../server/src/config";
import { makeThumbnail } from "../server/src/media/images";
import { insertMediaItem } from "../server/src/media/repo";
import { createMediaStorage } from "../server/src/media/storage/create-storage";
import { systemClock } from "../server/src/platform/clock";
import { createProviders } from "../server/src/providers/create-providers";
import { startServer } from "../server/src/server";

const ITEMS = 1_000;
/** Every 20th image is a story scene that was also animated: its clip follows it. */
const VIDEO_EVERY = 20;
const BUDGET_BYTES = 2_000_000;
const port = Number(process.env.BENCH_PORT ?? 3630);
const chromiumPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

type Picture = { original: Buffer; thumbnail: Buffer };

/** A photo-like 2K picture: smooth colour fields with fine grain, which no encoder can flatten. */
async function texturedPicture(seed: number): Promise<Buffer> {
  const noise = (width: number, height: number) => {
    const data = Buffer.alloc(width * height * 3);
    let state = seed * 7919 + width;
    for (let i = 0; i < data.length; i++) {
      state = (state * 1103515245 + 12345) & 0x7fffffff;
      data[i] = state >> 23;
    }
    return sharp(data, { raw: { width, height, channels: 3 } });
  };
  const base = await noise(48, 36).resize(2048, 1536, { kernel: "cubic" }).png().toBuffer();
  const grain = await noise(1024, 768).resize(2048, 1536).png().toBuffer();
  return sharp(base)
    .composite([{ input: grain, blend: "soft-light" }])
    .png()
    .toBuffer();
}

async function pictures(kind: "illustrated" | "photographic", count: number): Promise<Picture[]> {
  const originals: Buffer[] = [];
  if (kind === "illustrated") {
    const image = createProviders(loadConfig({ LOG_LEVEL: "silent" }).providers).image;
    const prompts = ["A lighthouse at dusk", "A fox librarian by candlelight", "A neon city in the rain"];
    for (const prompt of prompts) {
      for (const file of await image.generate({
        prompt,
        count: Math.ceil(count / prompts.length),
        references: [],
      })) {
        originals.push(file.data);
      }
    }
  } else {
    for (let i = 0; i < count; i++) originals.push(await texturedPicture(i + 1));
  }
  return Promise.all(
    originals
      .slice(0, count)
      .map(async (original) => ({ original, thumbnail: await makeThumbnail(original) })),
  );
}

async function register(
  base: string,
  name: string,
): Promise<{ token: string; user: Record<string, unknown> }> {
  const response = await fetch(`${base}/api/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: `${name}@example.com`, username: name, password: "bench-password" }),
  });
  const body = (await response.json()) as {
    access_token: string;
    user_id: string;
    email: string;
    username: string;
    credits_remaining: number;
  };
  if (!response.ok) throw new Error(`register ${name}: ${JSON.stringify(body)}`);
  return {
    token: body.access_token,
    user: { id: body.user_id, email: body.email, username: body.username, credits_remaining: 15 },
  };
}

type FirstScreen = {
  totalBytes: number;
  requests: number;
  byType: Record<string, { count: number; bytes: number }>;
  thumbnails: number;
  originals: number;
  tiles: number;
};

async function measureFirstScreen(
  base: string,
  session: { token: string; user: Record<string, unknown> },
  viewport: { width: number; height: number },
): Promise<FirstScreen> {
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  try {
    const context = await browser.newContext({ viewport, deviceScaleFactor: 1 });
    // Signed in before the first script runs: one cold navigation straight to the Gallery.
    const entries = {
      token: session.token,
      user: JSON.stringify(session.user),
      currentView: "library",
      activeNavItem: "library",
    };
    await context.addInitScript({
      content: `for (const [k, v] of Object.entries(${JSON.stringify(entries)})) localStorage.setItem(k, v);`,
    });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send("Network.enable");
    await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
    const responses = new Map<string, { url: string; type: string }>();
    const finished = new Map<string, number>();
    let lastActivity = Date.now();
    cdp.on("Network.requestWillBeSent", () => {
      lastActivity = Date.now();
    });
    cdp.on("Network.responseReceived", (event) => {
      responses.set(event.requestId, { url: event.response.url, type: event.type ?? "Other" });
    });
    cdp.on("Network.loadingFinished", (event) => {
      finished.set(event.requestId, event.encodedDataLength);
      lastActivity = Date.now();
    });

    await page.goto(base);
    await page.getByRole("list", { name: "Your media" }).waitFor();
    // The first screen is done when nothing has moved on the network for 2 seconds.
    while (Date.now() - lastActivity < 2_000) await page.waitForTimeout(250);
    const tiles = await page.getByRole("list", { name: "Your media" }).getByRole("listitem").count();

    const byType: FirstScreen["byType"] = {};
    let totalBytes = 0;
    let thumbnails = 0;
    let originals = 0;
    for (const [id, bytes] of finished) {
      const response = responses.get(id);
      const type = response?.type ?? "Other";
      byType[type] ??= { count: 0, bytes: 0 };
      byType[type].count += 1;
      byType[type].bytes += bytes;
      totalBytes += bytes;
      const pathname = response ? new URL(response.url).pathname : "";
      if (pathname.includes(".thumb.")) thumbnails += 1;
      else if (/\/u\/.+\.(png|jpe?g|webp|mp4)$/.test(pathname)) originals += 1;
    }
    return { totalBytes, requests: finished.size, byType, thumbnails, originals, tiles };
  } finally {
    await browser.close();
  }
}

const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;

async function main(): Promise<void> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "storyverse-gallery-bench-"));
  const config = loadConfig({
    PORT: String(port),
    HOST: "127.0.0.1",
    DATA_DIR: dataDir,
    LOG_LEVEL: "silent",
    WORKER: "off",
    REQUIRE_EMAIL_VERIFICATION: "false",
  });
  const server = await startServer(config);
  const base = `http://127.0.0.1:${port}`;
  const storage = createMediaStorage(config.storage, config.sessionSecret, systemClock);
  const db = server.database.db;
  console.log(`# Gallery first screen with ${ITEMS} items (budget: under ${kb(BUDGET_BYTES)})`);
  console.log(`node ${process.version}, ${os.cpus().length} cores, ${os.cpus()[0]?.model ?? "unknown cpu"}`);
  let failed = false;
  try {
    for (const kind of ["illustrated", "photographic"] as const) {
      const session = await register(base, `gallery_${kind}`);
      const userId = String(session.user.id);
      const set = await pictures(kind, 8);
      const video = Buffer.alloc(400_000, 1); // never fetched by the grid: only its poster is shown
      const start = Date.UTC(2026, 0, 1);
      let made = 0;
      const save = async (
        index: number,
        file: { data: Buffer; mime: string; ext: string; thumbnailKey?: string | null },
      ) => {
        const id = randomUUID();
        const key = `u/${userId}/${id}.${file.ext}`;
        await storage.put(key, file.data, file.mime);
        let thumbnailKey = file.thumbnailKey ?? null;
        if (file.thumbnailKey === undefined) {
          thumbnailKey = `u/${userId}/${id}.thumb.webp`;
          await storage.put(thumbnailKey, set[index % set.length]!.thumbnail, "image/webp");
        }
        made += 1;
        return insertMediaItem(db, {
          id,
          userId,
          kind: file.mime.startsWith("video/") ? "video" : "image",
          storageKey: key,
          thumbnailKey,
          mimeType: file.mime,
          bytes: file.data.length,
          width: file.mime.startsWith("image/") ? 2048 : null,
          height: file.mime.startsWith("image/") ? 1536 : null,
          source: index % 3 === 0 ? "story" : "studio",
          storyId: null,
          storyTitle: index % 3 === 0 ? "The Lantern Coast" : null,
          messageId: null,
          description: `Seeded ${kind} item ${index + 1}`,
          createdAt: new Date(start + index * 60_000),
        });
      };
      const seedStarted = Date.now();
      // Every 20th slot is a story scene: its image, then the clip made from it (poster = the scene image).
      for (let index = 0; made < ITEMS; index++) {
        const picture = set[index % set.length]!;
        const row = await save(index, { data: picture.original, mime: "image/png", ext: "png" });
        if (index % VIDEO_EVERY === VIDEO_EVERY - 1 && made < ITEMS) {
          await save(index, { data: video, mime: "video/mp4", ext: "mp4", thumbnailKey: row.storageKey });
        }
      }
      console.log(
        `\n## ${kind}: ${made} items seeded in ${((Date.now() - seedStarted) / 1000).toFixed(0)} s`,
      );
      console.log(
        `thumbnail sizes: ${set.map((p) => kb(p.thumbnail.length)).join(", ")}; originals ${set.map((p) => kb(p.original.length)).join(", ")}`,
      );

      for (const viewport of [
        { width: 1920, height: 1080 },
        { width: 1440, height: 900 },
        { width: 375, height: 812 },
      ]) {
        const result = await measureFirstScreen(base, session, viewport);
        const within = result.totalBytes < BUDGET_BYTES && result.originals === 0;
        failed ||= !within;
        console.log(
          `${viewport.width}x${viewport.height}: ${kb(result.totalBytes)} in ${result.requests} responses, ` +
            `${result.tiles} tiles, ${result.thumbnails} thumbnails, ${result.originals} originals ` +
            `(${((100 * result.totalBytes) / BUDGET_BYTES).toFixed(1)}% of budget) ${within ? "OK" : "OVER BUDGET"}`,
        );
        console.log(
          `  ${Object.entries(result.byType)
            .map(([type, { count, bytes }]) => `${type} ${count} / ${kb(bytes)}`)
            .join(", ")}`,
        );
      }
      const itemsOnScreen = 30;
      const originalsWouldCost = set.reduce((sum, p) => sum + p.original.length, 0) / set.length;
      console.log(
        `for scale: showing the first ${itemsOnScreen} items as 2K originals would move about ${kb(originalsWouldCost * itemsOnScreen)}`,
      );
    }
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
  console.log(`\nbudget: ${failed ? "NOT met" : "met"}`);
  if (failed) process.exitCode = 1;
}

await main();
