// What a conversation asks of the API it talks to: the main chat's endpoints or a story's. useChatSession
// drives any backend the same way; the story interface and the main chat each hand it theirs.
import type { ChatMessage, ChatMode, ChatResponse, MediaStatus } from "@storyverse/contract/chat";
import type { RetryWhat } from "@storyverse/contract/story-craft";
import type { QueryKey } from "@tanstack/react-query";
import type { TurnStreaming } from "./api/send-chat-message";
import type { CanvasMedia } from "./canvas-media";
import type { PageReader } from "./message-pages";

export interface ChatBackend {
  /** The conversation's query key, and how to read it. */
  queryKey: QueryKey;
  fetchMessages: (signal: AbortSignal) => Promise<ChatMessage[]>;
  /**
   * Story chats: the conversation is read a page at a time (decision 0130); fetchMessages reads the newest page
   * (message-pages.ts), this reads the others.
   */
  pages?: PageReader;
  /** Read the conversation afresh whenever the view opens (unless the opener just did). */
  refreshOnOpen?: boolean;
  /** With `streaming`, the story text arrives word by word and aborting its signal stops the narrator. */
  send: (prompt: string, mode: ChatMode, streaming?: TurnStreaming) => Promise<ChatResponse>;
  /** The player's words as the conversation will show them (a story's Do / Say / Story); as typed without it. */
  shownAs?: (prompt: string) => string;
  mediaStatus: (messageId: string, signal: AbortSignal) => Promise<MediaStatus>;
  /** After a turn was accepted (e.g. the story's message count changed). */
  onSent?: () => void;
  /** A message's media arrived. */
  onMediaCompleted?: (message: ChatMessage) => void;
  /** The canvas changed (e.g. to remember it per story). */
  onCanvasChange?: (canvas: CanvasMedia | null) => void;
  /** Story chats: retry, continue, undo, edit and versions. */
  craft?: CraftBackend;
}

/** The story-craft calls a conversation can make. */
export interface CraftBackend {
  /**
   * New words keeping the scene ("text"), a new scene for the same words ("media") or both. With `streaming`,
   * the new version's words arrive as they are written; aborting its signal stops it.
   */
  retry: (messageId: string, what: RetryWhat, streaming?: TurnStreaming) => Promise<ChatResponse>;
  /** The newest narrator message grows; with `streaming`, the added words arrive as they are written. */
  continueStory: (streaming?: TurnStreaming) => Promise<ChatResponse>;
  undo: () => Promise<string[]>;
  redo: () => Promise<ChatMessage[]>;
  /** How many undone exchanges the server keeps for Redo (read when the conversation opens: it outlives a reload). */
  redoable?: (signal: AbortSignal) => Promise<number>;
  edit: (messageId: string, content: string) => Promise<ChatMessage>;
  selectVersion: (messageId: string, version: number) => Promise<ChatMessage>;
  /**
   * A group scene (decision 0164): the next character speaks without a line from the player, in a message of
   * their own (`speakerId`, else the scene's order picks).
   */
  speakNext?: (speakerId: string | null, streaming?: TurnStreaming) => Promise<ChatResponse>;
  /** The turn shows another picture or clip of its line (an edit of its own, decision 0163). */
  showMedia: (messageId: string, galleryItemId: string) => Promise<ChatMessage>;
}
