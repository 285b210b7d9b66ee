// Story Settings' "You play as" (decision 0152): your default (named when you have one) and each of your
// personas, saved as the story's persona_id only when changed.
import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { type FetchCall, json, mockFetch } from "../../../test/mock-fetch";
import { Providers, SIGNED_IN } from "../../../test/render-app";
import { makeStory } from "../../../test/story-fixtures";
import { StorySettingsDialog } from "./story-settings-dialog";

const ASH = "00000000-0000-4000-8000-0000000000a1";
const BO = "00000000-0000-4000-8000-0000000000b2";

const persona = (id: string, name: string, isDefault: boolean) => ({
  id,
  name,
  description: "",
  portrait: null,
  voice: null,
  is_default: isDefault,
  created_at: "2026-11-29T08:00:00.000Z",
  updated_at: "2026-11-29T08:00:00.000Z",
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe("Story Settings: You play as", () => {
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
  function storyServer(call: FetchCall) {
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
      return json({ success: true, provider: "offline", default_model: "m", models: [{ id: "m" }] });
    }
    if (call.path.endsWith("/settings") && call.method === "PUT") {
      return json({ ...SETTINGS, ...(call.body as object) });
    }
    if (call.path.endsWith("/settings")) return json(SETTINGS);
    if (call.path === "/api/voices") {
      return json({ success: true, provider: "none", default_voice: null, price_per_unit: 0, voices: [] });
    }
    if (call.path === "/api/personas") {
      return json({
        success: true,
        personas: [persona(ASH, "Ash", true), persona(BO, "Bo", false)],
        max: 50,
      });
    }
    return json({ detail: "not found" }, 404);
  }

  it("offers the default (named) and each persona, and saves the one chosen", async () => {
    const calls = mockFetch(storyServer);
    const onClose = vi.fn();
    render(
      <Providers auth={SIGNED_IN}>
        <StorySettingsDialog story={story} onClose={onClose} withMemory />
      </Providers>,
    );
    const picker = (await screen.findByLabelText("You play as")) as HTMLSelectElement;
    await waitFor(() => expect(picker.options).toHaveLength(3));
    expect([...picker.options].map((o) => o.textContent)).toEqual(["Your default (Ash)", "Ash", "Bo"]);
    fireEvent.change(picker, { target: { value: BO } });
    fireEvent.click(screen.getByRole("button", { name: "Save Changes" }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(calls.filter((c) => c.method === "PUT")).toEqual([
      expect.objectContaining({ path: `/api/stories/${story.id}/settings`, body: { persona_id: BO } }),
    ]);
  });
});
