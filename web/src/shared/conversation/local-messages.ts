// Messages the web shows before the server lists them: the player's words at once, the narrator's as they
// arrive, the answer built from a turn's response; and where new words go in a conversation's list.
import type { ChatMessage, ChatMode, ChatResponse } from "@storyverse/contract/chat";

let localIds = 0;

/** A message shown before the server has it: the user's own words, at once. */
export function localUserMessage(content: string, mode: ChatMode, now = new Date()): ChatMessage {
  const id = `local-${++localIds}`;
  const at = now.toISOString();
  return {
    id,
    _id: id,
    message_id: id,
    role: "user",
    content,
    timestamp: at,
    created_at: at,
    mode,
    image_url: null,
    video_url: null,
    media_status: "none",
    media_error: null,
  };
}

/** The narrator's words as they arrive, before the answer has its id. */
export function localNarratorMessage(mode: ChatMode): ChatMessage {
  return { ...localUserMessage("", mode), role: "assistant" };
}

export function isLocalMessage(message: Pick<ChatMessage, "id">): boolean {
  return message.id.startsWith("local-");
}

/** The narrator's answer as the server will list it, built from the send's response. */
export function assistantMessageFrom(response: ChatResponse, mode: ChatMode, now = new Date()): ChatMessage {
  const at = now.toISOString();
  return {
    id: response.message_id,
    _id: response.message_id,
    message_id: response.message_id,
    role: "assistant",
    content: response.story_text,
    timestamp: at,
    created_at: at,
    mode,
    image_url: null,
    video_url: null,
    media_status: response.media_generation.status === "started" ? "pending" : "none",
    media_error: null,
    ...(response.shaped_by ? { shaped_by: response.shaped_by } : {}),
    // A character teller's answer names its speaker (decision 0154).
    ...(response.speaker !== undefined ? { speaker: response.speaker } : {}),
  };
}

/** Puts `message` in the place of the first of `ids` the list holds (the words so far, a retried answer), else last. */
export function putInPlaceOf(
  list: ChatMessage[],
  ids: readonly string[],
  message: ChatMessage,
): ChatMessage[] {
  const at = list.findIndex((m) => ids.includes(m.id));
  return at < 0 ? [...list, message] : list.map((m, i) => (i === at ? message : m));
}

/** Gives a message its stored id (the player's words once the server has them, so they can be edited). */
export function withStoredId(list: ChatMessage[], localId: string, storedId: string): ChatMessage[] {
  return list.map((m) =>
    m.id === localId ? { ...m, id: storedId, _id: storedId, message_id: storedId } : m,
  );
}

/** The conversation without its newest exchange (the narrator's answer and the words it answered), as Undo leaves it. */
export function withoutNewestExchange(list: ChatMessage[]): ChatMessage[] {
  const answer = list.at(-1);
  if (!answer) return list;
  const question = list.at(-2);
  const asked = answer.role === "assistant" && question?.role === "user";
  return list.slice(0, asked ? -2 : -1);
}
