import { SHARED_PICTURE_SIZES } from "@storyverse/contract/sharing";
import { fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { setLanguage } from "../../../i18n/i18n";
import { json, mockFetch } from "../../../test/mock-fetch";
import { Providers, SIGNED_IN } from "../../../test/render-app";
import { makeStory } from "../../../test/story-fixtures";
import { ShareExportDialog } from "./share-export-dialog";
import { SharedStoryPage, shareTokenFromPath } from "./shared-story-page";

const TOKEN = "AbCdEfGhIjKlMnOpQrStUv";
const story = makeStory();
/** The backup section belongs to the stories feature (the app adds it); these tests are about sharing. */
const NoSection = () => null;
const film = (status: string, progress: number, video_url: string | null = null) => ({
  id: "f1",
  status,
  progress,
  error: null,
  video_url,
  captions_url: video_url ? "/api/media/f1.vtt" : null,
  media_id: video_url ? "m1" : null,
  created_at: "2026-01-01T00:00:00.000Z",
  updated_at: "2026-01-01T00:00:00.000Z",
});

afterEach(async () => {
  window.history.replaceState(null, "", "/");
  await setLanguage("en");
});

describe("Share & export dialog", () => {
  it("shows the film's price before starting it, then its progress", async () => {
    let started = false;
    const calls = mockFetch(({ path, method }) => {
      if (path.endsWith("/film") && method === "POST") {
        started = true;
        return json({ success: true, film: film("queued", 0), cost: 0 }, 202);
      }
      if (path.endsWith("/film"))
        return json({ success: true, film: started ? film("running", 40) : null, cost: 0 });
      return json({ success: true, shared: false, url: null, created_at: null, show_username: false });
    });
    render(
      <Providers auth={SIGNED_IN}>
        <ShareExportDialog story={story} onClose={() => {}} backupSection={NoSection} />
      </Providers>,
    );
    expect(await screen.findByText(/Free: it reuses the scenes you already made/)).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Make the film" }));
    expect(await screen.findByRole("progressbar", { name: "Film progress" })).toBeTruthy();
    expect(
      calls.some((call) => call.method === "POST" && call.path === `/api/stories/${story.id}/film`),
    ).toBe(true);
  });

  it("asks for a read-along EPUB when Read-along (narrated) is ticked, and only for the EPUB", async () => {
    const exportAnswer = (format: string) =>
      json(
        {
          success: true,
          export: {
            id: "e1",
            format,
            status: "failed",
            progress: 0,
            error: "The export could not be made. Please try again.",
            filename: null,
            created_at: "2026-01-01T00:00:00.000Z",
            updated_at: "2026-01-01T00:00:00.000Z",
          },
        },
        202,
      );
    const calls = mockFetch(({ path, method, body }) => {
      if (path.endsWith("/exports") && method === "POST")
        return exportAnswer((body as { format: string }).format);
      if (path.endsWith("/film")) return json({ success: true, film: null, cost: 0 });
      return json({ success: true, shared: false, url: null, created_at: null, show_username: false });
    });
    render(
      <Providers auth={SIGNED_IN}>
        <ShareExportDialog story={story} onClose={() => {}} backupSection={NoSection} />
      </Providers>,
    );
    const exports = () => calls.filter((call) => call.method === "POST" && call.path.endsWith("/exports"));
    fireEvent.click(screen.getByRole("checkbox", { name: /Read-along \(narrated\)/ }));
    fireEvent.click(screen.getByRole("button", { name: "EPUB book" }));
    await vi.waitFor(() => expect(exports()).toHaveLength(1));
    expect(exports()[0]?.body).toEqual({ format: "epub", narration: true });
    // The job failed at once (this server's answer): the buttons come back.
    await vi.waitFor(() =>
      expect(screen.getByRole("button", { name: "PDF" }).hasAttribute("disabled")).toBe(false),
    );
    fireEvent.click(screen.getByRole("button", { name: "PDF" }));
    await vi.waitFor(() => expect(exports()).toHaveLength(2));
    expect(exports()[1]?.body).toEqual({ format: "pdf" });
  });

  it("says why an export failed, in the interface's language", async () => {
    mockFetch(({ path, method }) => {
      if (path.endsWith("/exports") && method === "POST")
        return json(
          {
            success: true,
            export: {
              id: "e1",
              format: "epub",
              status: "failed",
              progress: 0,
              error: "There were not enough credits to narrate this book.",
              filename: null,
              created_at: "2026-01-01T00:00:00.000Z",
              updated_at: "2026-01-01T00:00:00.000Z",
            },
          },
          202,
        );
      if (path.endsWith("/film")) return json({ success: true, film: null, cost: 0 });
      return json({ success: true, shared: false, url: null, created_at: null, show_username: false });
    });
    render(
      <Providers auth={SIGNED_IN}>
        <ShareExportDialog story={story} onClose={() => {}} backupSection={NoSection} />
      </Providers>,
    );
    fireEvent.click(await screen.findByRole("button", { name: "EPUB book" }));
    expect(await screen.findByText("There were not enough credits to narrate this book.")).toBeTruthy();
    expect(screen.queryByText("An error occurred")).toBeNull();
    await setLanguage("de");
    fireEvent.click(screen.getByRole("button", { name: "EPUB-Buch" }));
    expect(await screen.findByText("Es gab nicht genug Credits, um dieses Buch vorzulesen.")).toBeTruthy();
  });

  it("shows the step an export is on while the server makes it", async () => {
    const running = {
      success: true,
      export: {
        id: "e2",
        format: "pdf",
        status: "running",
        progress: 42,
        step: "Writing turn 1,200 of 10,000",
        error: null as string | null,
        filename: null,
        created_at: "2026-01-01T00:00:00.000Z",
        updated_at: "2026-01-01T00:00:00.000Z",
      },
    };
    let polled = running;
    mockFetch(({ path, method }) => {
      if (path.endsWith("/exports") && method === "POST") return json(running, 202);
      if (path.includes("/exports/e2")) return json(polled);
      if (path.endsWith("/film")) return json({ success: true, film: null, cost: 0 });
      return json({ success: true, shared: false, url: null, created_at: null, show_username: false });
    });
    render(
      <Providers auth={SIGNED_IN}>
        <ShareExportDialog story={story} onClose={() => {}} backupSection={NoSection} />
      </Providers>,
    );
    fireEvent.click(screen.getByRole("button", { name: "PDF" }));
    expect(await screen.findByText("Writing turn 1,200 of 10,000")).toBeTruthy();
    expect(screen.getByText(/Preparing your PDF… 42%/)).toBeTruthy();
    // The job ends (here it fails) while the dialog is open: its polling stops before the test does, so nothing
    // is left running into the next file (a poll outliving the page once failed the Node 22 run).
    polled = {
      ...running,
      export: {
        ...running.export,
        status: "failed",
        error: "The export could not be made. Please try again.",
      },
    };
    expect(await screen.findByText("The export could not be made. Please try again.")).toBeTruthy();
    expect(screen.queryByText(/Preparing your PDF/)).toBeNull();
  });

  it("stops following an export when the dialog is closed: no more polls and no download afterwards", async () => {
    const running = {
      success: true,
      export: {
        id: "e3",
        format: "pdf",
        status: "running",
        progress: 10,
        step: "Writing turn 1 of 10,000",
        error: null as string | null,
        filename: null,
        created_at: "2026-01-01T00:00:00.000Z",
        updated_at: "2026-01-01T00:00:00.000Z",
      },
    };
    const calls = mockFetch(({ path, method }) => {
      if (path.endsWith("/exports") && method === "POST") return json(running, 202);
      if (path.includes("/exports/e3")) return json(running);
      if (path.endsWith("/film")) return json({ success: true, film: null, cost: 0 });
      return json({ success: true, shared: false, url: null, created_at: null, show_username: false });
    });
    const view = render(
      <Providers auth={SIGNED_IN}>
        <ShareExportDialog story={story} onClose={() => {}} backupSection={NoSection} />
      </Providers>,
    );
    fireEvent.click(screen.getByRole("button", { name: "PDF" }));
    expect(await screen.findByText("Writing turn 1 of 10,000")).toBeTruthy();
    const exportCalls = () => calls.filter((call) => call.path.includes("/exports/e3")).length;
    // It is being followed: a poll comes after the first answer.
    await vi.waitFor(() => expect(exportCalls()).toBeGreaterThan(0), { timeout: 3_000 });
    view.rerender(
      <Providers auth={SIGNED_IN}>
        <ShareExportDialog story={null} onClose={() => {}} backupSection={NoSection} />
      </Providers>,
    );
    const atClose = exportCalls();
    // Three poll intervals later, nothing more was asked (a poll already on its way may still land).
    await new Promise((resolve) => setTimeout(resolve, 2_200));
    expect(exportCalls()).toBeLessThanOrEqual(atClose + 1);
    expect(calls.some((call) => call.path.endsWith("/file"))).toBe(false);
  });

  it("plays the finished film with its captions", async () => {
    mockFetch(({ path }) => {
      if (path.endsWith("/film"))
        return json({ success: true, film: film("completed", 100, "/api/media/f1.mp4"), cost: 0 });
      return json({ success: true, shared: false, url: null, created_at: null, show_username: false });
    });
    render(
      <Providers auth={SIGNED_IN}>
        <ShareExportDialog story={story} onClose={() => {}} backupSection={NoSection} />
      </Providers>,
    );
    const video = await screen.findByLabelText("The film");
    const track = video.querySelector("track");
    expect(track?.getAttribute("kind")).toBe("captions");
    expect(track?.getAttribute("src")).toBe("/api/media/f1.vtt");
    // The captions are the story's words: named as captions, never claimed to be English.
    expect(track?.getAttribute("label")).toBe("Captions");
    expect(track?.hasAttribute("srclang")).toBe(false);
  });

  it("makes a link with the username choice, shows it, and revokes it", async () => {
    let live = false;
    const calls = mockFetch(({ path, method }) => {
      if (path.endsWith("/film")) return json({ success: true, film: null, cost: 0 });
      if (method === "POST") {
        live = true;
        return json({
          success: true,
          url: `http://app.test/s/${TOKEN}`,
          created_at: "x",
          show_username: true,
        });
      }
      if (method === "DELETE") {
        live = false;
        return json({ success: true, message: "The share link no longer works." });
      }
      if (!live)
        return json({ success: true, shared: false, url: null, created_at: null, show_username: false });
      return json({
        success: true,
        shared: true,
        url: `http://app.test/s/${TOKEN}`,
        created_at: "x",
        show_username: true,
      });
    });
    render(
      <Providers auth={SIGNED_IN}>
        <ShareExportDialog story={story} onClose={() => {}} backupSection={NoSection} />
      </Providers>,
    );
    fireEvent.click(await screen.findByLabelText("Show my username on the shared page"));
    fireEvent.click(screen.getByRole("button", { name: "Create share link" }));
    const box = (await screen.findByRole("textbox", { name: "Share link" })) as HTMLInputElement;
    expect(box.value).toBe(`http://app.test/s/${TOKEN}`);
    expect(calls.find((call) => call.method === "POST")?.body).toEqual({ show_username: true });
    fireEvent.click(screen.getByRole("button", { name: "Revoke link" }));
    expect(await screen.findByRole("button", { name: "Create share link" })).toBeTruthy();
    expect(screen.queryByRole("textbox", { name: "Share link" })).toBeNull();
  });

  it("shows a live link again with Copy, without making a new one", async () => {
    const url = `http://app.test/s/${TOKEN}`;
    const calls = mockFetch(({ path }) => {
      if (path.endsWith("/film")) return json({ success: true, film: null, cost: 0 });
      return json({
        success: true,
        shared: true,
        url,
        created_at: "2026-01-01T00:00:00.000Z",
        show_username: false,
      });
    });
    const copied: string[] = [];
    Object.defineProperty(navigator, "clipboard", {
      configurable: true,
      value: { writeText: async (text: string) => void copied.push(text) },
    });
    render(
      <Providers auth={SIGNED_IN}>
        <ShareExportDialog story={story} onClose={() => {}} backupSection={NoSection} />
      </Providers>,
    );
    const box = (await screen.findByRole("textbox", { name: "Share link" })) as HTMLInputElement;
    expect(box.value).toBe(url);
    fireEvent.click(screen.getByRole("button", { name: "Copy link" }));
    expect(await screen.findByRole("button", { name: "Copied" })).toBeTruthy();
    expect(copied).toEqual([url]);
    expect(screen.getByRole("button", { name: "Make a new link" })).toBeTruthy();
    expect(screen.getByRole("button", { name: "Revoke link" })).toBeTruthy();
    expect(calls.filter((call) => call.path.endsWith("/share")).map((call) => call.method)).toEqual(["GET"]);
  });
});

describe("the shared story page", () => {
  it("reads the token from /s/{token} only", () => {
    expect(shareTokenFromPath(`/s/${TOKEN}`)).toBe(TOKEN);
    expect(shareTokenFromPath("/stories")).toBeNull();
  });

  it("shows the story with its words inert", async () => {
    window.history.replaceState(null, "", `/s/${TOKEN}`);
    const calls = mockFetch(() =>
      json({
        success: true,
        story: { title: "Lanterns", context: "A misty forest", created_at: "x", thumbnail: null },
        author: "ada",
        messages: [
          {
            id: "m1",
            role: "user",
            content: "<img src=x onerror=alert(1)> I knock",
            mode: "image",
            image_url: null,
            video_url: null,
            picture: null,
          },
          {
            id: "m2",
            role: "assistant",
            content: "The door **opens**.",
            mode: "image",
            image_url: "/i.png",
            video_url: null,
            picture: null,
          },
        ],
        has_more: false,
        next_cursor: null,
      }),
    );
    const { container } = render(<SharedStoryPage />);
    expect(await screen.findByRole("heading", { level: 1, name: "Lanterns" })).toBeTruthy();
    // The newest page opens the story (decision 0138).
    expect(calls[0]?.path).toBe(`/api/shared/${TOKEN}?limit=30`);
    expect(screen.getByText("A story by ada")).toBeTruthy();
    expect(screen.getByText("<img src=x onerror=alert(1)> I knock")).toBeTruthy();
    expect(container.querySelector('img[src="x"]')).toBeNull();
    expect(screen.getByRole("img", { name: "The scene" }).getAttribute("src")).toBe("/i.png");
    expect(container.querySelector("strong")?.textContent).toBe("opens");
  });

  it("shows page-sized pictures: srcset, sizes, width and height, the first eager and first in line", async () => {
    window.history.replaceState(null, "", `/s/${TOKEN}`);
    const scene = (n: number) => ({
      id: `s${n}`,
      role: "assistant",
      content: `Scene ${n}`,
      mode: "image",
      image_url: `/m/${n}.png`,
      video_url: null,
      picture: {
        src: `/m/${n}?w=720`,
        srcset: `/m/${n}?w=720 720w, /m/${n}?w=1440 1440w`,
        width: 720,
        height: 540,
      },
    });
    mockFetch(() =>
      json({
        success: true,
        story: { title: "Pictures", context: "", created_at: "x", thumbnail: null },
        author: null,
        messages: [
          {
            id: "u1",
            role: "user",
            content: "Go",
            mode: "chat",
            image_url: null,
            video_url: null,
            picture: null,
          },
          scene(1),
          scene(2),
          scene(3),
        ],
        has_more: false,
        next_cursor: null,
      }),
    );
    render(<SharedStoryPage />);
    await screen.findByRole("heading", { level: 1, name: "Pictures" });
    const images = screen.getAllByRole("img", { name: "The scene" });
    expect(images).toHaveLength(3);
    for (const [i, image] of images.entries()) {
      expect(image.getAttribute("src")).toBe(`/m/${i + 1}?w=720`);
      expect(image.getAttribute("srcset")).toBe(`/m/${i + 1}?w=720 720w, /m/${i + 1}?w=1440 1440w`);
      expect(image.getAttribute("sizes")).toBe(SHARED_PICTURE_SIZES);
      expect(image.getAttribute("width")).toBe("720");
      expect(image.getAttribute("height")).toBe("540");
    }
    expect(images[0]!.getAttribute("loading")).toBe("eager");
    expect(images[0]!.getAttribute("fetchpriority")).toBe("high");
    for (const image of images.slice(1)) {
      expect(image.getAttribute("loading")).toBe("lazy");
      expect(image.getAttribute("fetchpriority")).not.toBe("high");
    }
  });

  it("says plainly when the link is gone", async () => {
    window.history.replaceState(null, "", `/s/${TOKEN}`);
    mockFetch(() => json({ detail: "This shared story does not exist or is no longer shared." }, 404));
    render(<SharedStoryPage />);
    expect((await screen.findByRole("alert")).textContent).toBe(
      "This shared story does not exist or is no longer shared.",
    );
  });
});
