import { fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { type FetchCall, json, mockFetch } from "../../../test/mock-fetch";
import { Providers, SIGNED_IN } from "../../../test/render-app";
import { makeMessage, makeStory } from "../../../test/story-fixtures";
import { ImportNotesNotice } from "./import-notes";
import { StoriesPage } from "./stories-page";

const existing = makeStory({ id: "aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa", title: "The Lantern Forest" });
const imported = makeStory({
  id: "cccccccc-cccc-4ccc-8ccc-cccccccccccc",
  title: "Seraphina",
  context: "A forest glade where a guardian keeps watch",
  message_count: 1,
});
const verified = {
  user_id: "u1",
  email: "ada@example.com",
  username: "ada",
  email_verified: true,
  credits_remaining: 15,
  created_at: "2026-01-01T00:00:00Z",
  valid: true,
};
const notes = [
  { name: "description", reason: "Cut to 4000 characters (it had 5210)." },
  { name: "Old Ruins", reason: "A lore entry without keys or content was left out." },
];

function serve(routes: Record<string, (call: FetchCall) => Response | Promise<Response>>) {
  return mockFetch(
    (call) =>
      routes[`${call.method} ${call.path}`]?.(call) ??
      json({ detail: `unexpected ${call.method} ${call.path}` }, 404),
  );
}

const baseRoutes = {
  "GET /api/stories": () => json({ success: true, stories: [existing] }),
  "GET /api/user/verify": () => json(verified),
  [`GET /api/stories/${imported.id}/messages?limit=30`]: () =>
    json({
      success: true,
      messages: [makeMessage({ id: "opening", content: "*Seraphina looks up.* Welcome, ada." })],
    }),
};

function renderPage() {
  return render(
    <Providers auth={SIGNED_IN}>
      <StoriesPage />
    </Providers>,
  );
}

/** The multipart body the page sent with its request to `path`. */
function formSentTo(path: string): FormData | undefined {
  const call = vi.mocked(fetch).mock.calls.find(([input]) => String(input) === path);
  const body = call?.[1]?.body;
  return body instanceof FormData ? body : undefined;
}

const cardFile = (name = "seraphina.png", bytes = "\x89PNG card") =>
  new File([bytes], name, { type: name.endsWith(".json") ? "application/json" : "image/png" });

describe("importing a character on the Stories list", () => {
  it("posts the picked card file, then opens the new story", async () => {
    serve({
      ...baseRoutes,
      "POST /api/stories/import": () => json({ success: true, story: imported, notes: [] }),
    });
    renderPage();
    await screen.findByRole("article", { name: "The Lantern Forest" });
    const file = cardFile();
    fireEvent.change(screen.getByLabelText("Character card file"), { target: { files: [file] } });

    await waitFor(() => expect(window.location.pathname).toBe(`/stories/${imported.id}`));
    const sent = formSentTo("/api/stories/import")?.get("file");
    expect(sent).toBeInstanceOf(File);
    expect((sent as File).name).toBe("seraphina.png");
    expect(window.location.pathname).toBe(`/stories/${imported.id}`);
  });

  it("disables both actions and says Importing… while the file uploads", async () => {
    let answer: (response: Response) => void = () => {};
    serve({
      ...baseRoutes,
      "POST /api/stories/import": () =>
        new Promise<Response>((resolve) => {
          answer = resolve;
        }),
    });
    renderPage();
    const importButton = await screen.findByRole("button", { name: "Import a character" });
    expect(importButton.getAttribute("title")).toMatch(/PNG, JSON or CHARX/);
    fireEvent.change(screen.getByLabelText("Character card file"), { target: { files: [cardFile()] } });

    const busy = await screen.findByRole("button", { name: "Importing…" });
    expect((busy as HTMLButtonElement).disabled).toBe(true);
    expect(busy.getAttribute("aria-busy")).toBe("true");
    expect((screen.getByRole("button", { name: "Restore a backup" }) as HTMLButtonElement).disabled).toBe(
      true,
    );

    answer(json({ success: true, story: imported, notes: [] }));
    await waitFor(() => expect(window.location.pathname).toBe(`/stories/${imported.id}`));
  });

  it("keeps the notes of what was cut for the new story, where the player sees and dismisses them", async () => {
    serve({
      ...baseRoutes,
      "POST /api/stories/import": () => json({ success: true, story: imported, notes }),
    });
    renderPage();
    await screen.findByRole("article", { name: "The Lantern Forest" });
    fireEvent.change(screen.getByLabelText("Character card file"), { target: { files: [cardFile()] } });
    await waitFor(() => expect(window.location.pathname).toBe(`/stories/${imported.id}`));

    render(<ImportNotesNotice storyId={imported.id} />);
    const notice = screen.getByRole("region", { name: "2 things were changed on import" });
    expect(notice.textContent).toContain("description: Cut to 4000 characters (it had 5210).");
    expect(notice.textContent).toContain("Old Ruins: A lore entry without keys or content was left out.");
    fireEvent.click(screen.getByRole("button", { name: "Dismiss the import notes" }));
    expect(screen.queryByRole("region", { name: /changed on import/ })).toBeNull();
  });

  it("shows the server's reason when the file is refused, and stays on the list", async () => {
    serve({
      ...baseRoutes,
      "POST /api/stories/import": () =>
        json(
          { detail: "This PNG has no character card in it (no ccv3 or chara chunk).", code: "invalid_file" },
          400,
        ),
    });
    renderPage();
    await screen.findByRole("article", { name: "The Lantern Forest" });
    fireEvent.change(screen.getByLabelText("Character card file"), {
      target: { files: [cardFile("holiday.png")] },
    });

    expect(
      await screen.findByText(
        "Couldn't import “holiday.png”: This PNG has no character card in it (no ccv3 or chara chunk).",
      ),
    ).toBeTruthy();
    expect(window.location.pathname).not.toMatch(/^\/stories\/./);
    expect((screen.getByRole("button", { name: "Import a character" }) as HTMLButtonElement).disabled).toBe(
      false,
    );
    fireEvent.click(screen.getByRole("button", { name: "Dismiss the error" }));
    expect(screen.queryByText(/Couldn't import/)).toBeNull();
  });

  it("refuses a file over 20 MB without sending it", async () => {
    const calls = serve(baseRoutes);
    renderPage();
    await screen.findByRole("article", { name: "The Lantern Forest" });
    const huge = cardFile("huge.png");
    Object.defineProperty(huge, "size", { value: 21 * 1024 * 1024 });
    fireEvent.change(screen.getByLabelText("Character card file"), { target: { files: [huge] } });
    expect(
      await screen.findByText("Couldn't import “huge.png”: the file is larger than 20 MB."),
    ).toBeTruthy();
    expect(calls.some((call) => call.path === "/api/stories/import")).toBe(false);
  });

  it("takes a card dropped on the list, showing the drop zone while it is dragged over", async () => {
    serve({
      ...baseRoutes,
      "POST /api/stories/import": () => json({ success: true, story: imported, notes: [] }),
    });
    renderPage();
    const list = await screen.findByRole("article", { name: "The Lantern Forest" });
    const file = cardFile("seraphina.json", '{"spec":"chara_card_v2"}');
    const dataTransfer = { types: ["Files"], files: [file], dropEffect: "none" };
    fireEvent.dragEnter(list, { dataTransfer });
    expect(screen.getByText("Drop to import")).toBeTruthy();
    fireEvent.dragOver(list, { dataTransfer });
    fireEvent.drop(list, { dataTransfer });
    expect(screen.queryByText("Drop to import")).toBeNull();

    await waitFor(() => expect(window.location.pathname).toBe(`/stories/${imported.id}`));
    expect((formSentTo("/api/stories/import")?.get("file") as File).name).toBe("seraphina.json");
  });

  it("shows a dropped backup for what it holds, restores it on confirm with its progress, and refuses a file of another kind", async () => {
    const restoreId = "dddddddd-dddd-4ddd-8ddd-dddddddddddd";
    const restore = (status: string, progress: number, story: typeof imported | null = null) => ({
      success: true,
      restore: {
        id: restoreId,
        status,
        progress,
        preview: {
          title: "Seraphina (restored)",
          exchanges: 12,
          branches: 3,
          checkpoints: 2,
          media: 41,
          bytes: 5_452_595,
        },
        story,
        notes: [],
        error: null,
      },
    });
    const polls = [restore("running", 55), restore("completed", 100, imported)];
    serve({
      ...baseRoutes,
      "POST /api/stories/restore": () => json(restore("previewed", 0)),
      [`POST /api/stories/restore/${restoreId}/confirm`]: () => json(restore("queued", 0), 202),
      [`GET /api/stories/restore/${restoreId}`]: () =>
        json(polls.shift() ?? restore("completed", 100, imported)),
    });
    renderPage();
    const list = await screen.findByRole("article", { name: "The Lantern Forest" });
    const notes = new File(["hello"], "notes.txt", { type: "text/plain" });
    fireEvent.drop(list, { dataTransfer: { types: ["Files"], files: [notes] } });
    expect(await screen.findByText(/“notes.txt” is not a file Storyverse can import/)).toBeTruthy();

    const backup = new File(["PK"], "seraphina.storyverse.zip", { type: "application/zip" });
    fireEvent.drop(list, { dataTransfer: { types: ["Files"], files: [backup] } });
    const dialog = await screen.findByRole("dialog", { name: "Restore this backup?" });
    expect(dialog.textContent).toContain(
      "“Seraphina (restored)”: 12 exchanges, 3 branches, 2 checkpoints, 41 pictures and clips (5.2 MB).",
    );
    expect((formSentTo("/api/stories/restore")?.get("file") as File).name).toBe("seraphina.storyverse.zip");
    // Nothing is restored before the player says so.
    expect(vi.mocked(fetch).mock.calls.some(([input]) => String(input).endsWith("/confirm"))).toBe(false);
    fireEvent.click(screen.getByRole("button", { name: "Restore" }));
    await waitFor(() => expect(window.location.pathname).toBe(`/stories/${imported.id}`), { timeout: 5_000 });
    expect(
      vi.mocked(fetch).mock.calls.some(([input]) => String(input).endsWith(`/restore/${restoreId}/confirm`)),
    ).toBe(true);
  });

  it("keeps a restore that failed in its dialog, with the server's reason, and opens nothing", async () => {
    const restoreId = "eeeeeeee-eeee-4eee-8eee-eeeeeeeeeeee";
    const restore = (status: string, error: string | null = null) => ({
      success: true,
      restore: {
        id: restoreId,
        status,
        progress: 0,
        preview: { title: "Clips (restored)", exchanges: 1, branches: 1, checkpoints: 0, media: 1, bytes: 0 },
        story: null,
        notes: [],
        error,
      },
    });
    const reason =
      '"media/videos/0001.mp4" in the archive is not a video this app can play: it is not a whole MP4 or WebM.';
    serve({
      ...baseRoutes,
      "POST /api/stories/restore": () => json(restore("previewed")),
      [`POST /api/stories/restore/${restoreId}/confirm`]: () => json(restore("queued"), 202),
      [`GET /api/stories/restore/${restoreId}`]: () => json(restore("failed", reason)),
    });
    renderPage();
    await screen.findByRole("article", { name: "The Lantern Forest" });
    fireEvent.change(screen.getByLabelText("Story backup file"), {
      target: { files: [new File(["PK"], "clips.zip", { type: "application/zip" })] },
    });
    const dialog = await screen.findByRole("dialog", { name: "Restore this backup?" });
    // No size is given for a backup that stores no file.
    expect(dialog.textContent).toContain(
      "“Clips (restored)”: 1 exchange, 1 branch, 0 checkpoints, 1 picture or clip.",
    );
    fireEvent.click(screen.getByRole("button", { name: "Restore" }));
    expect(await screen.findByText(`Couldn't restore “clips.zip”: ${reason}`)).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Restore" })).toBeNull();
    // The dialog's own Close (beside its corner's X).
    fireEvent.click(within(dialog).getByText("Close", { selector: "button" }));
    await waitFor(() => expect(screen.queryByRole("dialog", { name: "Restore this backup?" })).toBeNull());
    expect(window.location.pathname).not.toMatch(/^\/stories\/./);
  });

  it("restores a picked backup and shows the server's reason when it is refused", async () => {
    serve({
      ...baseRoutes,
      "POST /api/stories/restore": () =>
        json({ detail: "This archive is not a Storyverse story backup.", code: "invalid_file" }, 400),
    });
    renderPage();
    await screen.findByRole("article", { name: "The Lantern Forest" });
    fireEvent.change(screen.getByLabelText("Story backup file"), {
      target: { files: [new File(["PK"], "photos.zip", { type: "application/zip" })] },
    });
    expect(
      await screen.findByText(
        "Couldn't restore “photos.zip”: This archive is not a Storyverse story backup.",
      ),
    ).toBeTruthy();
    expect(window.location.pathname).not.toMatch(/^\/stories\/./);
  });
});
