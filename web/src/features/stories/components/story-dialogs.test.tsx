import { fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { useState } from "react";
import { describe, expect, it, vi } from "vitest";
import { type FetchCall, json, mockFetch } from "../../../test/mock-fetch";
import { Providers, SIGNED_IN } from "../../../test/render-app";
import { makeStory } from "../../../test/story-fixtures";
import { readStoryMediaStates, saveStoryMediaState } from "../media-states";
import { CreateStoryDialog } from "./create-story-dialog";
import { DeleteStoryDialog } from "./delete-story-dialog";
import { StorySettingsDialog, storyChanges } from "./story-settings-dialog";
import { narratorContext } from "./test-context";

const type = (label: string, value: string) =>
  fireEvent.change(screen.getByLabelText(label), { target: { value } });
const button = (name: string) => screen.getByRole("button", { name }) as HTMLButtonElement;

describe("Create New Story", () => {
  function renderCreate() {
    const onCreated = vi.fn();
    const onOpenChange = vi.fn();
    render(
      <Providers auth={SIGNED_IN}>
        <CreateStoryDialog open onOpenChange={onOpenChange} onCreated={onCreated} />
      </Providers>,
    );
    return { onCreated, onOpenChange };
  }

  it("counts the name against 30, hints at the context and keeps Create disabled while the name is blank", () => {
    mockFetch(() => json({}, 500));
    renderCreate();
    expect(screen.getByRole("dialog", { name: "Create New Story" })).toBeTruthy();
    expect(screen.getByText("0/30")).toBeTruthy();
    expect(screen.getByText(/Set the scene and style for the first image/)).toBeTruthy();
    expect(screen.getByText("Optional")).toBeTruthy();
    expect(button("Create").disabled).toBe(true);
    type("Story Name", "   ");
    expect(button("Create").disabled).toBe(true);
    type("Story Name", "Neon Nights");
    expect(screen.getByText("11/30")).toBeTruthy();
    expect(button("Create").disabled).toBe(false);
    expect((screen.getByLabelText("Story Name") as HTMLInputElement).maxLength).toBe(30);
    expect(button("Cancel")).toBeTruthy();
  });

  it("creates with the trimmed name and the context, then hands the story over", async () => {
    const story = makeStory({ title: "Neon Nights", context: "Rain" });
    const calls = mockFetch(() => json({ success: true, story }));
    const { onCreated, onOpenChange } = renderCreate();
    type("Story Name", "  Neon Nights ");
    type("Story Context", "Rain");
    fireEvent.click(button("Create"));
    await waitFor(() => expect(onCreated).toHaveBeenCalledWith(story));
    expect(calls[0]).toMatchObject({
      path: "/api/stories",
      method: "POST",
      body: { title: "Neon Nights", context: "Rain" },
    });
    expect(onOpenChange).toHaveBeenCalledWith(false);
  });

  it("checks the fields with the contract's schema before sending: a context over 65000 characters is refused", async () => {
    const calls = mockFetch(() => json({}, 500));
    renderCreate();
    type("Story Name", "Neon Nights");
    type("Story Context", "x".repeat(65_001));
    fireEvent.click(button("Create"));
    expect(await screen.findByText("Story context must be at most 65000 characters")).toBeTruthy();
    expect(calls).toHaveLength(0);
  });

  it("says 'Failed to create story.' when the server refuses, keeping what was typed", async () => {
    mockFetch(() => json({ detail: "Internal error" }, 500));
    renderCreate();
    type("Story Name", "Neon Nights");
    fireEvent.click(button("Create"));
    expect(await screen.findByText("Failed to create story.")).toBeTruthy();
    expect((screen.getByLabelText("Story Name") as HTMLInputElement).value).toBe("Neon Nights");
  });
});

describe("Story Settings", () => {
  const story = makeStory({ title: "The Lantern Forest", context: "Misty woods" });

  function renderSettings() {
    const onClose = vi.fn();
    render(
      <Providers auth={SIGNED_IN}>
        <StorySettingsDialog story={story} onClose={onClose} />
      </Providers>,
    );
    return onClose;
  }

  it("knows which fields changed", () => {
    expect(storyChanges(story, "The Lantern Forest", "Misty woods")).toBeNull();
    expect(storyChanges(story, "  The Lantern Forest  ", "Misty woods")).toBeNull();
    expect(storyChanges(story, " New title ", "Misty woods")).toEqual({ title: "New title" });
    expect(storyChanges(story, "The Lantern Forest", "Misty woods at dusk")).toEqual({
      context: "Misty woods at dusk",
    });
    expect(storyChanges(story, "Other", "")).toEqual({ title: "Other", context: "" });
  });

  it("starts from the story, counts the context against 65000 and refuses a blank title", () => {
    mockFetch(() => json({}, 500));
    renderSettings();
    expect((screen.getByLabelText("Story Title") as HTMLInputElement).value).toBe("The Lantern Forest");
    expect(screen.getByText("11/65000")).toBeTruthy();
    type("Story Context", "Misty woods, at dusk");
    expect(screen.getByText("20/65000")).toBeTruthy();
    type("Story Title", "  ");
    expect(button("Save Changes").disabled).toBe(true);
  });

  it("closes without a call when nothing changed", async () => {
    const calls = mockFetch(() => json({}, 500));
    const onClose = renderSettings();
    type("Story Title", " The Lantern Forest ");
    fireEvent.click(button("Save Changes"));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(calls).toHaveLength(0);
  });

  it("sends only the changed field, trimmed, showing 'Saving...' meanwhile", async () => {
    let answer: (response: Response) => void = () => {};
    const calls = mockFetch(() => new Promise<Response>((resolve) => (answer = resolve)));
    const onClose = renderSettings();
    type("Story Title", "  Lanterns at Dusk ");
    fireEvent.click(button("Save Changes"));
    expect(await screen.findByRole("button", { name: "Saving..." })).toBeTruthy();
    expect(calls[0]).toMatchObject({
      path: `/api/stories/${story.id}`,
      method: "PUT",
      body: { title: "Lanterns at Dusk" },
    });
    answer(json({ success: true, story: { ...story, title: "Lanterns at Dusk" } }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
  });

  it("says 'Failed to update story: {message}'", async () => {
    mockFetch(() => json({ detail: "Story title must be at most 100 characters" }, 400));
    renderSettings();
    type("Story Context", "New context");
    fireEvent.click(button("Save Changes"));
    expect(
      await screen.findByText("Failed to update story: Story title must be at most 100 characters"),
    ).toBeTruthy();
  });
});

describe("Story Settings docked beside the story (the side panel)", () => {
  const story = makeStory({ title: "The Lantern Forest", context: "Misty woods" });

  function server(call: FetchCall) {
    if (call.path === `/api/stories/${story.id}/memory`) {
      return json({
        success: true,
        memory: "Ansel fears the sea.",
        authors_note: "Tone: eerie.",
        summary: "Ansel lit the lamp.",
        summary_updated_at: null,
        summary_covers_messages: 0,
      });
    }
    if (call.path.startsWith(`/api/stories/${story.id}/context`)) {
      return json(narratorContext({ memory: 120, authors_note: 14, summary: 1, cards: 80 }));
    }
    return json({ detail: "not found" }, 404);
  }

  /** The story view in small: the button that opens the panel, and the composer beside it. */
  function StoryView() {
    const [open, setOpen] = useState(false);
    return (
      <>
        <button type="button" onClick={() => setOpen(true)}>
          Story Settings
        </button>
        <textarea aria-label="Message" />
        <StorySettingsDialog docked withMemory story={open ? story : null} onClose={() => setOpen(false)} />
      </>
    );
  }

  async function openPanel() {
    render(
      <Providers auth={SIGNED_IN}>
        <StoryView />
      </Providers>,
    );
    const opener = screen.getByRole("button", { name: "Story Settings" });
    opener.focus();
    fireEvent.click(opener);
    const panel = await screen.findByRole("dialog", { name: "Story Settings" });
    return { opener, panel };
  }

  it("leaves the story usable: no overlay, the composer stays reachable and typing there keeps it open", async () => {
    mockFetch(server);
    const { panel } = await openPanel();
    await waitFor(() => expect(panel.contains(document.activeElement)).toBe(true));
    // A modal shuts the pointer out of the rest of the page and hides it from assistive technology
    // (aria-hidden, so it would have no role here); beside the story, the composer stays.
    expect(document.body.style.pointerEvents).toBe("");
    const composer = screen.getByRole("textbox", { name: "Message" }) as HTMLTextAreaElement;
    fireEvent.pointerDown(composer);
    composer.focus();
    fireEvent.change(composer, { target: { value: "I open the door" } });
    // Escape in the composer is the composer's own.
    fireEvent.keyDown(composer, { key: "Escape" });
    expect(screen.getByRole("dialog", { name: "Story Settings" })).toBe(panel);
    expect(document.activeElement).toBe(composer);
    expect(composer.value).toBe("I open the door");
  });

  it("shows what Memory, the Author's Note and the summary take of the next turn, beside their labels", async () => {
    const calls = mockFetch(server);
    const { panel } = await openPanel();
    await within(panel).findByText("120 tokens");
    const row = (label: string) => within(panel).getByText(label, { selector: "label" }).parentElement;
    expect(row("Memory")?.textContent).toBe("Memory· 120 tokens");
    expect(row("Author's Note")?.textContent).toBe("Author's Note· 14 tokens");
    expect(row("The story so far")?.textContent).toBe("The story so far· 1 token");
    // The field keeps its name; the count is read with it as its description.
    const memory = within(panel).getByLabelText("Memory");
    const described = (memory.getAttribute("aria-describedby") ?? "")
      .split(" ")
      .map((id) => document.getElementById(id)?.textContent);
    expect(described).toEqual(["120 tokens", "Always at the top of what the narrator reads."]);
    // The server's count of the next turn (what Continue would send).
    expect(calls.some((c) => c.path === `/api/stories/${story.id}/context?chat_mode=image`)).toBe(true);
  });

  it("Escape closes it and the focus goes back to the button that opened it", async () => {
    mockFetch(server);
    const { opener, panel } = await openPanel();
    const memory = (await within(panel).findByLabelText("Memory")) as HTMLTextAreaElement;
    memory.focus();
    fireEvent.keyDown(memory, { key: "Escape" });
    await waitFor(() => expect(screen.queryByRole("dialog", { name: "Story Settings" })).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(opener));
  });

  it("opened from the list of stories, it is still a modal dialog without token counts", async () => {
    const calls = mockFetch(server);
    render(
      <Providers auth={SIGNED_IN}>
        <StorySettingsDialog story={story} onClose={vi.fn()} />
      </Providers>,
    );
    expect(screen.getByRole("dialog", { name: "Story Settings" })).toBeTruthy();
    expect(document.body.style.pointerEvents).toBe("none");
    expect(screen.queryByText(/tokens?$/)).toBeNull();
    expect(calls.some((c) => c.path.includes("/context"))).toBe(false);
  });
});

describe("Delete Story", () => {
  const story = makeStory({ title: "Neon Nights" });

  it("names the story, warns it cannot be undone and that the media stay in the gallery", () => {
    mockFetch(() => json({}, 500));
    render(
      <Providers auth={SIGNED_IN}>
        <DeleteStoryDialog story={story} onClose={vi.fn()} />
      </Providers>,
    );
    const dialog = screen.getByRole("dialog", { name: "Delete Story" });
    expect(dialog.textContent).toContain("“Neon Nights”");
    expect(dialog.textContent).toContain("cannot be undone");
    expect(dialog.textContent).toContain("remain in your gallery");
    expect(button("Cancel")).toBeTruthy();
  });

  it("deletes ('Deleting...'), forgets the story's stored canvas, and closes", async () => {
    saveStoryMediaState(story.id, {
      image: "/a.png",
      video: null,
      isVideoMode: false,
      lastUpdated: "2026-01-01T00:00:00Z",
    });
    saveStoryMediaState("other", {
      image: "/b.png",
      video: null,
      isVideoMode: false,
      lastUpdated: "2026-01-01T00:00:00Z",
    });
    let answer: (response: Response) => void = () => {};
    const calls = mockFetch(() => new Promise<Response>((resolve) => (answer = resolve)));
    const onClose = vi.fn();
    render(
      <Providers auth={SIGNED_IN}>
        <DeleteStoryDialog story={story} onClose={onClose} />
      </Providers>,
    );
    fireEvent.click(button("Delete Story"));
    expect(await screen.findByRole("button", { name: "Deleting..." })).toBeTruthy();
    expect(calls[0]).toMatchObject({ path: `/api/stories/${story.id}`, method: "DELETE" });
    answer(json({ success: true, message: "Story deleted." }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(Object.keys(readStoryMediaStates())).toEqual(["other"]);
  });

  it("says 'Failed to delete story: {message}' and stays open", async () => {
    mockFetch(() => json({ detail: "Story not found" }, 404));
    const onClose = vi.fn();
    render(
      <Providers auth={SIGNED_IN}>
        <DeleteStoryDialog story={story} onClose={onClose} />
      </Providers>,
    );
    fireEvent.click(button("Delete Story"));
    expect(await screen.findByText("Failed to delete story: Story not found")).toBeTruthy();
    expect(onClose).not.toHaveBeenCalled();
  });
});
