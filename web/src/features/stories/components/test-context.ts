// A narrator context as GET /api/stories/{id}/context answers it, for the tests of the side panel's token
// counts: the parts' tokens are the test's, the rest is a plain story's.
import type { NarratorContext } from "@storyverse/contract/story-craft";
import type { ContextPart } from "./section-tokens";

export function narratorContext(tokens: Partial<Record<ContextPart, number>>): NarratorContext {
  const parts = (
    ["instructions", "memory", "cards", "summary", "history", "authors_note", "prompt"] as const
  ).map((part) => ({ part, tokens: tokens[part] ?? 0 }));
  return {
    success: true,
    messages: [{ role: "system", content: "You are the narrator." }],
    parts,
    dropped_messages: 0,
    cut_to_fit: [],
    total_tokens: parts.reduce((sum, part) => sum + part.tokens, 0),
    budget_tokens: 8000,
    generation: {
      text_model: "gpt-4o-mini",
      max_tokens: 900,
      temperature: 0.9,
      output_length: "medium",
      authors_note_depth: 1,
      input_mode: "story",
      art_style: "",
      aspect_ratio: "4:3",
    },
    active_cards: [],
    recalled: [],
    image_references: [],
    camera: {
      scene_prompt: "[the scene the illustrator writes from the next answer]",
      scene_state: { place: "", time_of_day: "", weather: "" },
      characters: [],
      references: [],
    },
  };
}
