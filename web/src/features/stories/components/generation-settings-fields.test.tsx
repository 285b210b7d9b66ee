// The Generation section of Story Settings (opened from the story): it shows the story's settings and the models
// the server offers, saves only what changed, and refuses an Author's Note depth out of range without a call. With
// narration on, the narrator's voice (with a sample to hear) and "Read new turns aloud" are saved the same way.
import { fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { type FetchCall, json, mockFetch } from "../../../test/mock-fetch";
import { Providers, SIGNED_IN } from "../../../test/render-app";
import { makeStory } from "../../../test/story-fixtures";
import { StorySettingsDialog } from "./story-settings-dialog";

const story = makeStory({ title: "Harbour", context: "A grey town." });

const SETTINGS = {
  success: true,
  output_length: "medium",
  temperature: 0.9,
  text_model: null,
  authors_note_depth: 1,
  art_style: "",
  aspect_ratio: "4:3",
  input_mode: "story",
  narrator_voice: null,
  read_aloud: false,
  persona_id: null,
  teller: "narrator",
  character_ids: [],
  effective_text_model: "gpt-4o-mini",
  max_tokens: 900,
};

const VOICES = {
  success: true,
  provider: "offline",
  default_voice: "amber",
  price_per_unit: 0,
  voices: [
    { id: "amber", name: "Amber", language: "en-US", sample_url: "/api/voices/amber/sample" },
    { id: "slate", name: "Slate", language: "en-GB", sample_url: "/api/voices/slate/sample" },
  ],
};

let voices: unknown = { ...VOICES, provider: "none", default_voice: null, voices: [] };

function server(call: FetchCall) {
  if (call.path === "/api/voices") return json(voices);
  if (call.path.startsWith("/api/voices/")) {
    return new Response("RIFF", { headers: { "Content-Type": "audio/wav" } });
  }
  if (call.path.endsWith("/memory")) {
    return json({
      success: true,
      memory: "",
      authors_note: "",
      summary: "",
      summary_updated_at: null,
      summary_covers_messages: 0,
    });
  }
  if (call.path === "/api/models") {
    return json({
      success: true,
      provider: "openai",
      default_model: "gpt-4o-mini",
      models: [{ id: "gpt-4o-mini" }, { id: "gpt-4o" }],
    });
  }
  if (call.path.endsWith("/settings") && call.method === "PUT") {
    return json({ ...SETTINGS, ...(call.body as object), effective_text_model: "gpt-4o", max_tokens: 1600 });
  }
  if (call.path.endsWith("/settings")) return json(SETTINGS);
  return json({ detail: "not found" }, 404);
}

function renderDialog() {
  const onClose = vi.fn();
  render(
    <Providers auth={SIGNED_IN}>
      <StorySettingsDialog story={story} onClose={onClose} withMemory />
    </Providers>,
  );
  return onClose;
}

afterEach(() => {
  voices = { ...VOICES, provider: "none", default_voice: null, voices: [] };
  vi.restoreAllMocks();
});

describe("Story Settings: Generation", () => {
  it("shows the settings and the offered models, and saves only what changed", async () => {
    const calls = mockFetch(server);
    const onClose = renderDialog();
    const section = await screen.findByRole("region", { name: "Generation" });
    const model = within(section).getByLabelText("Text model") as HTMLSelectElement;
    await waitFor(() => expect(model.options).toHaveLength(2));
    expect([...model.options].map((o) => o.textContent)).toEqual(["Default (gpt-4o-mini)", "gpt-4o"]);
    expect((within(section).getByLabelText("Output length") as HTMLSelectElement).value).toBe("medium");
    expect(within(section).getByText("0.90")).toBeTruthy();

    fireEvent.change(model, { target: { value: "gpt-4o" } });
    fireEvent.change(within(section).getByLabelText("Output length"), { target: { value: "long" } });
    fireEvent.change(within(section).getByLabelText("Randomness"), { target: { value: "0.35" } });
    fireEvent.change(within(section).getByLabelText("Note depth"), { target: { value: "3" } });
    const shape = within(section).getByLabelText("Scene shape") as HTMLSelectElement;
    // The six shapes of decision 0149, named.
    expect([...shape.options].map((o) => o.textContent)).toEqual([
      "1:1 square",
      "4:3 landscape",
      "3:4 portrait",
      "16:9 wide",
      "9:16 tall",
      "21:9 cinema",
    ]);
    fireEvent.change(shape, { target: { value: "9:16" } });
    fireEvent.change(within(section).getByLabelText("Default input"), { target: { value: "do" } });
    fireEvent.change(within(section).getByLabelText("Art style"), { target: { value: " ink wash " } });
    fireEvent.click(screen.getByRole("button", { name: "Save Changes" }));

    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const puts = calls.filter((c) => c.method === "PUT");
    expect(puts).toEqual([
      expect.objectContaining({
        path: `/api/stories/${story.id}/settings`,
        body: {
          output_length: "long",
          temperature: 0.35,
          text_model: "gpt-4o",
          authors_note_depth: 3,
          art_style: "ink wash",
          aspect_ratio: "9:16",
          input_mode: "do",
        },
      }),
    ]);
  });

  it("refuses an Author's Note depth out of range with a message and sends nothing", async () => {
    const calls = mockFetch(server);
    const onClose = renderDialog();
    const section = await screen.findByRole("region", { name: "Generation" });
    fireEvent.change(within(section).getByLabelText("Note depth"), { target: { value: "40" } });
    fireEvent.click(screen.getByRole("button", { name: "Save Changes" }));
    expect(await screen.findByText(/The note depth must be a whole number from 1 to 20/)).toBeTruthy();
    expect(calls.filter((c) => c.method === "PUT")).toEqual([]);
    expect(onClose).not.toHaveBeenCalled();
  });

  it("nothing changed: Save Changes closes without a call", async () => {
    const calls = mockFetch(server);
    const onClose = renderDialog();
    await screen.findByRole("region", { name: "Generation" });
    fireEvent.change(screen.getByLabelText("Story Title"), { target: { value: "Harbour" } });
    fireEvent.click(screen.getByRole("button", { name: "Save Changes" }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(calls.filter((c) => c.method !== "GET")).toEqual([]);
  });
});

describe("Story Settings: the narrator's voice", () => {
  it("picks the narrator's voice (after a sample) and Read new turns aloud, and saves them", async () => {
    voices = VOICES;
    const played: string[] = [];
    vi.spyOn(HTMLMediaElement.prototype, "play").mockImplementation(function (this: HTMLMediaElement) {
      played.push(this.src);
      return Promise.resolve();
    });
    vi.spyOn(HTMLMediaElement.prototype, "pause").mockImplementation(() => {});
    const createObjectURL = vi.fn(() => "blob:sample");
    vi.stubGlobal("URL", Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
    const calls = mockFetch(server);
    const onClose = renderDialog();
    const section = await screen.findByRole("region", { name: "Generation" });
    const voice = (await within(section).findByLabelText("Narrator voice")) as HTMLSelectElement;
    expect([...voice.options].map((o) => o.textContent)).toEqual([
      "Default voice",
      "Amber (en-US)",
      "Slate (en-GB)",
    ]);
    expect(voice.value).toBe("");

    fireEvent.change(voice, { target: { value: "slate" } });
    fireEvent.click(within(section).getByRole("button", { name: "Play sample" }));
    await waitFor(() => expect(played).toEqual(["blob:sample"]));
    const sample = calls.find((c) => c.path === "/api/voices/slate/sample");
    expect(sample?.headers.Authorization).toBe("Bearer test-token");
    // A second click stops it.
    fireEvent.click(within(section).getByRole("button", { name: "Stop sample" }));
    expect(within(section).getByRole("button", { name: "Play sample" })).toBeTruthy();

    const readAloud = within(section).getByRole("switch", { name: "Read new turns aloud" });
    expect((readAloud as HTMLInputElement).checked).toBe(false);
    fireEvent.click(readAloud);
    fireEvent.click(screen.getByRole("button", { name: "Save Changes" }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(calls.filter((c) => c.method === "PUT").map((c) => c.body)).toEqual([
      { narrator_voice: "slate", read_aloud: true },
    ]);
  });

  it("shows no voice settings when the server has narration off", async () => {
    mockFetch(server);
    renderDialog();
    const section = await screen.findByRole("region", { name: "Generation" });
    await waitFor(() => expect(fetch).toHaveBeenCalledWith("/api/voices", expect.anything()));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(within(section).queryByLabelText("Narrator voice")).toBeNull();
    expect(within(section).queryByRole("switch", { name: "Read new turns aloud" })).toBeNull();
  });
});
