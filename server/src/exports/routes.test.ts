import { PDFDocument, PDFName, PDFRawStream } from "pdf-lib";
import { SaxesParser } from "saxes";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app";
import { bearer, createUser, type TestUser } from "../../test/factories";
import { waitForMedia } from "../../test/media";
import { readZip, type ZipEntry } from "../../test/zip";
import { insertMessage } from "../chat/repo";
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
});
