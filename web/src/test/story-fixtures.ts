// Factories for the stories and chat unit tests: a story and a message as the server lists them.
import type { ChatMessage } from "@storyverse/contract/chat";
import type { Story } from "@storyverse/contract/stories";

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

/** The story screen without the app's "Share & export" dialog, which its tests do not open. */
export const NoShareDialog = () => null;
