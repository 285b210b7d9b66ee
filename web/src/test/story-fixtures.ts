// Factories for the stories and chat unit tests: a story and a message as the server lists them.
import type { ChatMessage } from "@storyverse/contract/chat";
import type { Story } from "@storyverse/contract/stories";
import type { StoryCard } from "@storyverse/contract/story-cards";

export function makeStory(patch: Partial<Story> = {}): Story {
  const id = patch.id ?? "11111111-1111-4111-8111-111111111111";
  return {
    id,
    _id: id,
    title: "The Lantern Forest",
    context: "Misty woods lit by floating lanterns",
    thumbnail: null,
    message_count: 0,
    last_updated: "2026-03-05T10:00:00.000Z",
    updated_at: "2026-03-05T10:00:00.000Z",
    created_at: "2026-03-01T10:00:00.000Z",
    branch: { id, name: "Main" },
    ...patch,
  };
}

export function makeMessage(patch: Partial<ChatMessage> & Pick<ChatMessage, "id">): ChatMessage {
  const at = patch.timestamp ?? "2026-03-05T10:00:00.000Z";
  return {
    _id: patch.id,
    message_id: patch.id,
    role: "assistant",
    content: "The lanterns drift closer.",
    timestamp: at,
    created_at: at,
    mode: "image",
    image_url: null,
    video_url: null,
    media_status: "none",
    media_error: null,
    ...patch,
  };
}

/** A Story Card as the server lists it: `name` of the coast, with its portrait as its one reference. */
export function makeCard(
  id: string,
  name: string,
  kind: StoryCard["kind"],
  portrait: string | null = null,
): StoryCard {
  return {
    id,
    name,
    kind,
    triggers: [name],
    description: `${name} of the coast.`,
    portrait: portrait ? { url: portrait, gallery_item_id: null } : null,
    references: portrait ? [{ url: portrait, gallery_item_id: null }] : [],
    enabled: true,
    secondary_triggers: [],
    selective_logic: "and_any",
    constant: false,
    insertion_order: 100,
    priority: 10,
    case_sensitive: false,
    from_character_card: false,
    creator_notes: "",
    voice: null,
    appearance: "",
    created_at: "2026-11-29T08:00:00.000Z",
    updated_at: "2026-11-29T08:00:00.000Z",
  };
}

/** A story's generation settings as GET /settings answers them, told by `teller` with these cards. */
export const makeGenerationSettings = (
  teller: "narrator" | "character" | "group",
  characterIds: string[],
  group: {
    speaker_order?: "natural" | "round_robin" | "manual" | "all";
    muted_ids?: string[];
    knows_what_they_saw?: boolean;
  } = {},
) => ({
  success: true as const,
  output_length: "medium" as const,
  temperature: 0.9,
  text_model: null,
  authors_note_depth: 1,
  art_style: "",
  aspect_ratio: "4:3" as const,
  input_mode: "story" as const,
  narrator_voice: null,
  read_aloud: false,
  persona_id: null,
  teller,
  character_ids: characterIds,
  ...group,
  effective_text_model: "gpt-4o-mini",
  max_tokens: 900,
});

/** The story screen without the app's "Share & export" dialog, which its tests do not open. */
export const NoShareDialog = () => null;
