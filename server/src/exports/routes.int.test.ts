import { PDFDocument, PDFName, PDFRawStream } from "pdf-lib";
import { SaxesParser } from "saxes";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { createTestApp, type TestApp } from "../../test/app";
import { bearer, createUser, type TestUser } from "../../test/factories";
import { waitForMedia } from "../../test/media";
import { readZip, type ZipEntry } from "../../test/zip";
import { insertMessage } from "../conversation/repo";
import { setStorageQuota, storageUsage } from "../media/quota";
import { saveImage } from "../media/service";
import { BOOK_IMAGE_MAX_SIZE } from "./ereader-images";

let t: TestApp;
beforeAll(async () => {
  // Turns made one after another must keep their order: the clock moves on.
  t = await createTestApp({ tickingClock: true });
});
afterAll(async () => {
  await t.cleanup();
});

const call = (user: TestUser, method: "GET" | "POST", url: string, payload?: object) =>
  t.app.inject({ method, url, headers: bearer(user.token), ...(payload ? { payload } : {}) });

async function newStory(user: TestUser, title: string, context = "") {
  const res = await call(user, "POST", "/api/stories", { title, context });
  return res.json().story.id as string;
}

async function turn(user: TestUser, storyId: string, prompt: string, mode: "chat" | "image" | "video") {
  const res = await call(user, "POST", `/api/stories/${storyId}/chat`, { prompt, chat_mode: mode });
  expect(res.statusCode).toBe(200);
  if (mode === "chat") return;
  const status = await waitForMedia(
    t,
    user.token,
    `/api/stories/${storyId}/media-status/${res.json().message_id}`,
  );
  expect(status.media_generation_completed).toBe(true);
}

async function download(user: TestUser, storyId: string, query: string) {
  const res = await call(user, "GET", `/api/stories/${storyId}/export?${query}`);
  expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
  return res;
}

function expectWellFormedXml(name: string, xml: string) {
  const parser = new SaxesParser({ xmlns: true });
  let failure: Error | null = null;
  parser.on("error", (error) => {
    failure ??= error;
  });
  parser.write(xml).close();
  expect(failure, `${name} is not well-formed XML`).toBeNull();
}

/** The attributes of every element named `tag` in an XML text (attribute values never contain quotes here). */
function elements(xml: string, tag: string): Record<string, string>[] {
  return [...xml.matchAll(new RegExp(`<${tag}\\b([^>]*)/?>`, "g"))].map((match) =>
    Object.fromEntries([...(match[1] ?? "").matchAll(/([\w:-]+)="([^"]*)"/g)].map((a) => [a[1], a[2]])),
  );
}

/** Checks an EPUB's container structure; returns its entries by name and the package document's manifest. */
function checkEpub(raw: Buffer, entries: ZipEntry[]) {
  // mimetype: the first entry, stored, no extra field, so its bytes sit at a fixed offset in the file.
  expect(entries[0]?.name).toBe("mimetype");
  expect(entries[0]?.compressionMethod).toBe(0);
  expect(entries[0]?.extraFieldLength).toBe(0);
  expect(raw.subarray(30, 38).toString("ascii")).toBe("mimetype");
  expect(raw.subarray(38, 58).toString("ascii")).toBe("application/epub+zip");

  const byName = new Map(entries.map((entry) => [entry.name, entry.data.toString("utf8")]));
  const container = byName.get("META-INF/container.xml") ?? "";
  expectWellFormedXml("container.xml", container);
  const rootfile = elements(container, "rootfile")[0]?.["full-path"];
  expect(rootfile).toBe("OEBPS/content.opf");
  const opf = byName.get("OEBPS/content.opf") ?? "";
  expectWellFormedXml("content.opf", opf);
  expect(opf).toMatch(/<meta property="dcterms:modified">\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ<\/meta>/);
  const manifest = elements(opf, "item");
  const hrefs = new Set(manifest.map((item) => `OEBPS/${item.href}`));
  // Every file of the book is in the manifest, and every manifest entry is in the book.
  const files = entries.map((e) => e.name).filter((n) => n.startsWith("OEBPS/") && n !== "OEBPS/content.opf");
  expect([...hrefs].sort()).toEqual(files.sort());
  expect(manifest.filter((item) => item.properties === "nav")).toHaveLength(1);
  for (const ref of elements(opf, "itemref")) {
    expect(manifest.some((item) => item.id === ref.idref)).toBe(true);
  }
  for (const entry of entries.filter((e) => e.name.endsWith(".xhtml"))) {
    expectWellFormedXml(entry.name, entry.data.toString("utf8"));
  }
  return { byName, manifest, opf };
}

describe("story export", () => {
  it("makes an EPUB 3 book with a cover, chapters and e-reader sized pictures of every scene", async () => {
    const user = await createUser(t);
    const storyId = await newStory(user, "The Ember Crown", "A *dragon* haunted kingdom & its <crown>");
    await turn(user, storyId, "I climb the tower", "image");
    await turn(user, storyId, 'I whisper <script>alert("x")</script> & wait', "chat");
    await turn(user, storyId, "I open the gate", "video");
    await turn(user, storyId, "I ride north", "image");

    const res = await download(user, storyId, "format=epub");
    expect(res.headers["content-type"]).toBe("application/epub+zip");
    expect(res.headers["content-disposition"]).toContain('filename="The-Ember-Crown.epub"');
    const entries = await readZip(res.rawPayload);
    const { byName, manifest, opf } = checkEpub(res.rawPayload, entries);

    expect(opf).toContain("<dc:title>The Ember Crown</dc:title>");
    expect(manifest.find((item) => item.properties === "cover-image")?.href).toBe("images/cover.jpg");
    // One picture per scene (the video turn shows the scene it was animated from), plus the cover.
    const images = manifest.filter((item) => item.href?.startsWith("images/scene-"));
    expect(images.map((item) => item.href)).toEqual([
      "images/scene-001.jpg",
      "images/scene-003.jpg",
      "images/scene-004.jpg",
    ]);
    for (const image of entries.filter((e) => e.name.startsWith("OEBPS/images/"))) {
      const meta = await sharp(image.data).metadata();
      expect(meta.format).toBe("jpeg");
      expect(Math.max(meta.width ?? 0, meta.height ?? 0)).toBeLessThanOrEqual(BOOK_IMAGE_MAX_SIZE);
    }
    const chapter = byName.get("OEBPS/chapter-001.xhtml") ?? "";
    expect(chapter).toContain('<img src="images/scene-003.jpg" alt="Scene 3"/>');
    expect(chapter).toContain("I whisper &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; wait");
    expect(chapter).not.toContain("<script");
    expect(byName.get("OEBPS/title.xhtml")).toContain(
      "A <em>dragon</em> haunted kingdom &amp; its &lt;crown&gt;",
    );
    expect(byName.get("OEBPS/nav.xhtml")).toContain('<a href="chapter-001.xhtml">Chapter 1</a>');
  });

  it("exports an empty story as a valid book with just its title", async () => {
    const user = await createUser(t);
    const storyId = await newStory(user, "Blank Pages");
    const res = await download(user, storyId, "format=epub");
    const entries = await readZip(res.rawPayload);
    const { byName, manifest } = checkEpub(res.rawPayload, entries);
    expect(byName.get("OEBPS/title.xhtml")).toContain("<h1>Blank Pages</h1>");
    expect(manifest.map((item) => item.href).sort()).toEqual(["nav.xhtml", "style.css", "title.xhtml"]);

    const markdown = await readZip((await download(user, storyId, "format=md")).rawPayload);
    expect(markdown.map((e) => e.name)).toEqual(["Blank-Pages/story.md"]);
    expect(markdown[0]?.data.toString()).toBe("# Blank Pages\n");
    const pdf = await PDFDocument.load((await download(user, storyId, "format=pdf")).rawPayload);
    expect(pdf.getPageCount()).toBe(1);
    expect(pdf.getTitle()).toBe("Blank Pages");
  });

  it("makes a Markdown zip: every exchange in order, the player's lines marked, media linked relatively", async () => {
    const user = await createUser(t);
    const storyId = await newStory(user, "Neon Nights", "Rain on chrome");
    await turn(user, storyId, "I enter the bar", "image");
    await turn(user, storyId, "I order a drink", "chat");
    await turn(user, storyId, "I chase the thief", "video");

    const res = await download(user, storyId, "format=md");
    expect(res.headers["content-type"]).toBe("application/zip");
    const entries = await readZip(res.rawPayload);
    const story = entries.find((e) => e.name === "Neon-Nights/story.md")?.data.toString() ?? "";
    expect(story.startsWith("# Neon Nights\n\n> Rain on chrome\n")).toBe(true);
    const player = [...story.matchAll(/^> \*\*You:\*\* (.*)$/gm)].map((m) => m[1]);
    expect(player).toEqual(["I enter the bar", "I order a drink", "I chase the thief"]);
    const links = [...story.matchAll(/\]\(((?:images|videos)\/[^)]+)\)/g)].map((m) => m[1]);
    expect(links).toEqual(["images/scene-001.png", "images/scene-003.png", "videos/scene-003.mp4"]);
    for (const link of links) {
      const file = entries.find((e) => e.name === `Neon-Nights/${link}`);
      expect(file?.data.length ?? 0).toBeGreaterThan(1000);
    }
  });

  it("makes a PDF with one picture per image turn, on A4 or Letter", async () => {
    const user = await createUser(t);
    const storyId = await newStory(user, "Paper Trail", "Ink and ash");
    await turn(user, storyId, "I read the letter", "image");
    await turn(user, storyId, "I fold it — ünd später… 漢字", "chat");
    await turn(user, storyId, "I burn it", "image");

    for (const [paper, size] of [
      ["a4", [595.28, 841.89]],
      ["letter", [612, 792]],
    ] as const) {
      const res = await download(user, storyId, `format=pdf&paper=${paper}`);
      expect(res.headers["content-type"]).toBe("application/pdf");
      const pdf = await PDFDocument.load(res.rawPayload);
      const images = pdf.context
        .enumerateIndirectObjects()
        .filter(
          ([, object]) =>
            object instanceof PDFRawStream && object.dict.get(PDFName.of("Subtype")) === PDFName.of("Image"),
        );
      expect(images).toHaveLength(2);
      const { width, height } = pdf.getPage(0).getSize();
      expect([Math.round(width), Math.round(height)]).toEqual([Math.round(size[0]), Math.round(size[1])]);
      expect(pdf.getTitle()).toBe("Paper Trail");
    }
  });

  it("lets only the owner export, and names the allowed formats for an unknown one", async () => {
    const owner = await createUser(t);
    const stranger = await createUser(t);
    const storyId = await newStory(owner, "Private");
    for (const format of ["md", "epub", "pdf"]) {
      const res = await call(stranger, "GET", `/api/stories/${storyId}/export?format=${format}`);
      expect(res.statusCode).toBe(404);
      expect(res.json().detail).toBe("Story not found");
    }
    for (const query of ["format=docx", "", "format=md&format=pdf"]) {
      const res = await call(owner, "GET", `/api/stories/${storyId}/export?${query}`);
      expect(res.statusCode).toBe(400);
      expect(res.json().detail).toMatch(/md, epub or pdf/);
    }
    const badPaper = await call(owner, "GET", `/api/stories/${storyId}/export?format=pdf&paper=a0`);
    expect(badPaper.statusCode).toBe(400);
    expect(badPaper.json().detail).toMatch(/a4 or letter/);
    const anonymous = await t.app.inject({ method: "GET", url: `/api/stories/${storyId}/export?format=md` });
    expect(anonymous.statusCode).toBe(401);
  });

  it("exports a title with characters outside the Basic Multilingual Plane in every format, downloaded or by a job", async () => {
    const user = await createUser(t);
    // Dragons are no letters (the file is "story"); the CJK letters are, and one in front puts the
    // 60-unit cut inside a surrogate pair.
    for (const title of ["🐉".repeat(40), `a${"𠀀".repeat(40)}`]) {
      const storyId = await newStory(user, "Astral");
      const renamed = await t.app.inject({
        method: "PUT",
        url: `/api/stories/${storyId}`,
        headers: bearer(user.token),
        payload: { title },
      });
      expect(renamed.statusCode, renamed.body).toBe(200);
      await turn(user, storyId, "The dragon sleeps", "chat");
      for (const format of ["md", "epub", "pdf"]) {
        const res = await download(user, storyId, `format=${format}`);
        const disposition = String(res.headers["content-disposition"]);
        const encoded = /filename\*=UTF-8''(.+)$/.exec(disposition)?.[1] ?? "";
        const name = decodeURIComponent(encoded);
        expect(name.endsWith(format === "md" ? ".zip" : `.${format}`)).toBe(true);
        // Cut between whole characters: nothing had to be replaced to make the header.
        expect(name).not.toContain("\uFFFD");

        // The download above was made by the same job: the story unchanged, that export answers.
        const started = await call(user, "POST", `/api/stories/${storyId}/exports`, { format });
        expect(started.statusCode).toBe(200);
        expect(started.json().reused).toBe(true);
        const exportId = started.json().export.id as string;
        let state = started.json().export;
        for (let i = 0; i < 300 && state.status !== "completed" && state.status !== "failed"; i += 1) {
          await new Promise((resolve) => setTimeout(resolve, 100));
          state = (await call(user, "GET", `/api/stories/${storyId}/exports/${exportId}`)).json().export;
        }
        expect(state.status).toBe("completed");
        const file = await call(user, "GET", `/api/stories/${storyId}/exports/${exportId}/file`);
        expect(file.statusCode, file.body.slice(0, 200)).toBe(200);
        expect(String(file.headers["content-disposition"])).toContain(`filename*=UTF-8''${encoded}`);
      }
    }
  }, 120_000);

  it("exports a 500-exchange story as Markdown and EPUB well within the 10 s bound", async () => {
    const user = await createUser(t);
    const storyId = await newStory(user, "The Long Road", "Five hundred turns");
    // A played story of 500 exchanges, written straight to the tables: 20 of them with a scene picture.
    const [picture] = await t.providers.image.generate({ prompt: "a long road", count: 1, references: [] });
    let at = Date.now() - 1_000_000;
    for (let i = 1; i <= 500; i += 1) {
      let imageKey: string | null = null;
      if (i % 25 === 0) {
        const item = await saveImage(
          t.ctx,
          t.ctx.db,
          {
            userId: user.userId,
            source: "story",
            storyId,
            storyTitle: "The Long Road",
            messageId: null,
            description: `Scene ${i}`,
          },
          picture!.data,
        );
        imageKey = item.storageKey;
      }
      const base = { userId: user.userId, storyId, mode: imageKey ? ("image" as const) : ("chat" as const) };
      await insertMessage(t.ctx.db, {
        ...base,
        role: "user",
        content: `Step ${i}`,
        createdAt: new Date(at),
        updatedAt: new Date(at),
      });
      at += 1;
      await insertMessage(t.ctx.db, {
        ...base,
        role: "assistant",
        content: `The road goes on, bend ${i}. **Onward.**`,
        imageKey,
        mediaStatus: imageKey ? "completed" : "none",
        createdAt: new Date(at),
        updatedAt: new Date(at),
      });
      at += 1;
    }

    // A generous sanity bound on a shared, loaded machine, not a benchmark.
    let started = Date.now();
    const epub = await download(user, storyId, "format=epub");
    expect(Date.now() - started).toBeLessThan(10_000);
    const entries = await readZip(epub.rawPayload);
    const { manifest } = checkEpub(epub.rawPayload, entries);
    expect(manifest.filter((item) => item.href?.startsWith("chapter-"))).toHaveLength(50);
    expect(manifest.filter((item) => item.href?.startsWith("images/scene-"))).toHaveLength(20);

    started = Date.now();
    const markdown = await download(user, storyId, "format=md");
    expect(Date.now() - started).toBeLessThan(10_000);
    const story =
      (await readZip(markdown.rawPayload)).find((e) => e.name.endsWith("story.md"))?.data.toString() ?? "";
    expect(story.match(/^> \*\*You:\*\* Step \d+$/gm)).toHaveLength(500);
    expect(story.indexOf("Step 499")).toBeLessThan(story.indexOf("Step 500"));
  }, 120_000);

  describe("exports made by a job", () => {
    /** A story of `count` exchanges written straight to the tables, each with the same scene picture. */
    async function illustratedStory(user: TestUser, count: number) {
      const storyId = await newStory(user, "Lanterns Everywhere", "A long night");
      const [picture] = await t.providers.image.generate({ prompt: "lanterns", count: 1, references: [] });
      let at = Date.now() - 1_000_000;
      for (let i = 1; i <= count; i += 1) {
        const item = await saveImage(
          t.ctx,
          t.ctx.db,
          {
            userId: user.userId,
            source: "story",
            storyId,
            storyTitle: "Lanterns Everywhere",
            messageId: null,
            description: `Lantern ${i}`,
          },
          picture!.data,
        );
        const base = { userId: user.userId, storyId, mode: "image" as const };
        const stamp = () => {
          at += 1;
          return { createdAt: new Date(at), updatedAt: new Date(at) };
        };
        await insertMessage(t.ctx.db, { ...base, role: "user", content: `Light ${i}`, ...stamp() });
        await insertMessage(t.ctx.db, {
          ...base,
          role: "assistant",
          content: `Lantern ${i} glows.`,
          imageKey: item.storageKey,
          mediaStatus: "completed",
          ...stamp(),
        });
      }
      return storyId;
    }

    /** Follows an export until it ends; answers every progress figure and step seen on the way and the last state. */
    async function follow(user: TestUser, storyId: string, exportId: string) {
      const seen: number[] = [];
      const steps: string[] = [];
      const deadline = Date.now() + 90_000;
      while (Date.now() < deadline) {
        const res = await call(user, "GET", `/api/stories/${storyId}/exports/${exportId}`);
        expect(res.statusCode).toBe(200);
        const state = res.json().export;
        seen.push(state.progress);
        if (state.step) steps.push(state.step);
        if (state.status === "completed" || state.status === "failed") return { seen, steps, state };
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      throw new Error("export did not finish");
    }

    /** A player's line added straight to the story (a change since its last export). */
    async function addLine(user: TestUser, storyId: string, content: string) {
      const at = new Date();
      await insertMessage(t.ctx.db, {
        userId: user.userId,
        storyId,
        role: "user",
        content,
        createdAt: at,
        updatedAt: at,
      });
    }

    const exportRows = async (storyId: string) =>
      (await t.database.executeSql("select id from story_exports where story_id = $1", [storyId])).rows;

    it("makes an illustrated EPUB in a job, reports progress up to 100, and serves the finished book", async () => {
      const user = await createUser(t);
      const storyId = await illustratedStory(user, 24);
      // A disk slow enough to watch: each picture takes 40 ms to read, so the progress moves while it is
      // polled (the test app's small pictures would otherwise be read before the first poll).
      const read = t.storage.read.bind(t.storage);
      t.storage.read = async (key) => {
        await new Promise((resolve) => setTimeout(resolve, 40));
        return read(key);
      };
      onTestFinished(() => {
        t.storage.read = read;
      });
      const started = await call(user, "POST", `/api/stories/${storyId}/exports`, { format: "epub" });
      expect(started.statusCode, started.body).toBe(202);
      expect(started.json().export).toMatchObject({
        format: "epub",
        status: "queued",
        progress: 0,
        filename: null,
      });

      const { seen, steps, state } = await follow(user, storyId, started.json().export.id);
      expect(state).toMatchObject({
        status: "completed",
        progress: 100,
        step: null,
        filename: "Lanterns-Everywhere.epub",
      });
      // The player watched it move: figures between start and end, never going back.
      expect(seen).toEqual([...seen].sort((a, b) => a - b));
      expect(seen.some((progress) => progress > 1 && progress < 100)).toBe(true);
      // ...with the step it was on, counted in the story's turns.
      expect(steps.some((step) => /^(Writing turn|Adding pictures: turn) \d+ of 24$/.test(step))).toBe(true);

      const file = await call(user, "GET", `/api/stories/${storyId}/exports/${state.id}/file`);
      expect(file.statusCode).toBe(200);
      expect(file.headers["content-type"]).toBe("application/epub+zip");
      expect(file.headers["content-disposition"]).toContain("Lanterns-Everywhere.epub");
      const { manifest } = checkEpub(file.rawPayload, await readZip(file.rawPayload));
      expect(manifest.filter((item) => item.href?.startsWith("images/scene-"))).toHaveLength(24);
    }, 180_000);

    it("makes PDFs and Markdown zips too, keeps a story's five newest exports, and removes older files", async () => {
      const user = await createUser(t);
      const storyId = await illustratedStory(user, 2);
      const ids: string[] = [];
      for (const [i, format] of ["pdf", "md", "md", "md", "md", "md"].entries()) {
        // Each export of a story that changed since the last (an unchanged one would be served again).
        if (i > 0) await addLine(user, storyId, `Another night ${i}`);
        const res = await call(user, "POST", `/api/stories/${storyId}/exports`, { format });
        expect(res.statusCode).toBe(202);
        const { state } = await follow(user, storyId, res.json().export.id);
        expect(state.status).toBe("completed");
        ids.push(state.id);
      }
      const pdf = await call(user, "GET", `/api/stories/${storyId}/exports/${ids[0]}/file`);
      // The sixth export pushed the first one (the PDF) out: its row and its file are gone.
      expect(pdf.statusCode).toBe(404);
      const zip = await call(user, "GET", `/api/stories/${storyId}/exports/${ids[5]}/file`);
      expect(zip.headers["content-type"]).toBe("application/zip");
      const names = (await readZip(zip.rawPayload)).map((entry) => entry.name);
      expect(names.filter((name) => name.includes("/images/scene-"))).toHaveLength(2);
      expect(await t.storage.read(`u/${user.userId}/exports/${ids[0]}.pdf`).catch(() => "gone")).toBe("gone");
    }, 180_000);

    it("deleting a story removes its exports, rows and files (its whole text and pictures)", async () => {
      const user = await createUser(t);
      const storyId = await illustratedStory(user, 2);
      const keys: string[] = [];
      for (const format of ["md", "epub"] as const) {
        const res = await call(user, "POST", `/api/stories/${storyId}/exports`, { format });
        const { state } = await follow(user, storyId, res.json().export.id);
        expect(state.status).toBe("completed");
        keys.push(`u/${user.userId}/exports/${state.id}.${format === "md" ? "zip" : format}`);
      }
      for (const key of keys) expect(await t.storage.size(key)).toBeGreaterThan(0);

      const deleted = await t.app.inject({
        method: "DELETE",
        url: `/api/stories/${storyId}`,
        headers: bearer(user.token),
      });
      expect(deleted.statusCode).toBe(200);
      for (const key of keys) await expect(t.storage.size(key)).rejects.toThrow("Media not found");
      const rows = await t.database.executeSql("select id from story_exports where story_id = $1", [storyId]);
      expect(rows.rows).toEqual([]);
    }, 120_000);

    it("answers an identical request with the export already made: no second job, the same file", async () => {
      const user = await createUser(t);
      const storyId = await illustratedStory(user, 3);
      const first = await call(user, "POST", `/api/stories/${storyId}/exports`, { format: "pdf" });
      expect(first.statusCode).toBe(202);
      expect(first.json().reused).toBe(false);
      // Asked again while the first is still being made: that one, not a second job.
      const during = await call(user, "POST", `/api/stories/${storyId}/exports`, { format: "pdf" });
      expect(during.json().export.id).toBe(first.json().export.id);
      const { state } = await follow(user, storyId, first.json().export.id);
      expect(state.status).toBe("completed");
      const made = await call(user, "GET", `/api/stories/${storyId}/exports/${state.id}/file`);

      const again = await call(user, "POST", `/api/stories/${storyId}/exports`, { format: "pdf" });
      expect(again.statusCode).toBe(200);
      expect(again.json()).toMatchObject({
        reused: true,
        export: { id: state.id, status: "completed", progress: 100, filename: "Lanterns-Everywhere.pdf" },
      });
      // The direct download is served from it too.
      const direct = await download(user, storyId, "format=pdf");
      expect(direct.rawPayload.equals(made.rawPayload)).toBe(true);
      expect(await exportRows(storyId)).toHaveLength(1);
      // Another paper is another file.
      const letter = await call(user, "POST", `/api/stories/${storyId}/exports`, {
        format: "pdf",
        paper: "letter",
      });
      expect(letter.statusCode).toBe(202);
      expect(letter.json().export.id).not.toBe(state.id);
      await follow(user, storyId, letter.json().export.id);
    }, 180_000);

    it("makes the export again once the story changed: a new line, an edited title", async () => {
      const user = await createUser(t);
      const storyId = await illustratedStory(user, 2);
      const first = await call(user, "POST", `/api/stories/${storyId}/exports`, { format: "md" });
      const firstId = first.json().export.id as string;
      await follow(user, storyId, firstId);

      await addLine(user, storyId, "The wind rises");
      const changed = await call(user, "POST", `/api/stories/${storyId}/exports`, { format: "md" });
      expect(changed.statusCode).toBe(202);
      const secondId = changed.json().export.id as string;
      expect(secondId).not.toBe(firstId);
      await follow(user, storyId, secondId);
      const file = await call(user, "GET", `/api/stories/${storyId}/exports/${secondId}/file`);
      const story = (await readZip(file.rawPayload))
        .find((e) => e.name.endsWith("story.md"))
        ?.data.toString();
      expect(story).toContain("The wind rises");

      const renamed = await t.app.inject({
        method: "PUT",
        url: `/api/stories/${storyId}`,
        headers: bearer(user.token),
        payload: { title: "Lanterns Nowhere" },
      });
      expect(renamed.statusCode, renamed.body).toBe(200);
      const third = await call(user, "POST", `/api/stories/${storyId}/exports`, { format: "md" });
      expect(third.statusCode).toBe(202);
      const { state } = await follow(user, storyId, third.json().export.id);
      expect(state.filename).toBe("Lanterns-Nowhere.zip");
    }, 180_000);

    it("fails with a clear reason and charges nothing when the file cannot be kept (storage full)", async () => {
      const user = await createUser(t);
      const storyId = await illustratedStory(user, 4);
      const before = (await call(user, "GET", "/api/quota")).json().remaining;
      // A 1 MB quota, filled: the file is refused by the store.
      await setStorageQuota(t.ctx.db, user.userId, 1);
      onTestFinished(() => setStorageQuota(t.ctx.db, user.userId, null));
      const { usedBytes } = await storageUsage(t.ctx, user.userId);
      const MB = 1024 * 1024;
      if (usedBytes < MB) {
        await t.storage.put(
          `u/${user.userId}/filler.bin`,
          Buffer.alloc(MB - usedBytes),
          "application/octet-stream",
        );
      }
      const res = await call(user, "POST", `/api/stories/${storyId}/exports`, { format: "epub" });
      expect(res.statusCode).toBe(202);
      const { state } = await follow(user, storyId, res.json().export.id);
      expect(state).toMatchObject({ status: "failed", filename: null, step: null });
      expect(state.error).toMatch(/^Your media storage is full/);
      expect((await call(user, "GET", `/api/stories/${storyId}/exports/${state.id}/file`)).statusCode).toBe(
        404,
      );
      expect((await call(user, "GET", "/api/quota")).json().remaining).toBe(before);
      // A failed export is never served again: the next request makes a new one.
      await setStorageQuota(t.ctx.db, user.userId, null);
      const retry = await call(user, "POST", `/api/stories/${storyId}/exports`, { format: "epub" });
      expect(retry.statusCode).toBe(202);
      expect((await follow(user, storyId, retry.json().export.id)).state.status).toBe("completed");
    }, 180_000);

    it("refuses unknown formats, strangers and unknown exports with clear 4xx answers", async () => {
      const owner = await createUser(t);
      const stranger = await createUser(t);
      const storyId = await illustratedStory(owner, 1);
      const bad = await call(owner, "POST", `/api/stories/${storyId}/exports`, { format: "docx" });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().detail).toBe('Unknown export format "docx": use md, epub or pdf.');
      const paper = await call(owner, "POST", `/api/stories/${storyId}/exports`, {
        format: "pdf",
        paper: "a3",
      });
      expect(paper.json().detail).toBe("Unknown paper size: use a4 or letter.");

      const res = await call(owner, "POST", `/api/stories/${storyId}/exports`, { format: "md" });
      const exportId = res.json().export.id;
      await follow(owner, storyId, exportId);
      for (const url of [
        `/api/stories/${storyId}/exports/${exportId}`,
        `/api/stories/${storyId}/exports/${exportId}/file`,
      ]) {
        expect((await call(stranger, "GET", url)).statusCode).toBe(404);
      }
      expect(
        (await call(stranger, "POST", `/api/stories/${storyId}/exports`, { format: "md" })).statusCode,
      ).toBe(404);
      const unknown = await call(owner, "GET", `/api/stories/${storyId}/exports/${crypto.randomUUID()}`);
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json().detail).toBe("Export not found");
    }, 120_000);
  });
});
