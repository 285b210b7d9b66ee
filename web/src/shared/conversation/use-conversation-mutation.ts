// Every change a player makes to a conversation goes through this one useMutation: a turn, a retry, a
// continuation (paid turns, their words streamed), and undo, redo, an edit or a chosen version (free changes).
// onMutate shows the change at once on the messages query and keeps a snapshot of the list; a streamed
// narrator writes its words into the query as they arrive; onSuccess puts the server's answer in their place;
// onError puts the snapshot back exactly and says why (the out-of-credits prompt by the error's code, else the
// server's message); onSettled reads the conversation again where the server's list may differ from what is
// shown (readBackAfter), so versions, order and ids are the server's.
// A Stop is not a failure: the words so far stay, marked stopped (before the first word the snapshot comes
// back), and the conversation is read again once the server has kept them and refunded the rest.
import type { ChatMessage, ChatMode, ChatResponse } from "@storyverse/contract/chat";
import { carryOn } from "@storyverse/contract/story-craft";
import { type QueryKey, useMutation, useQueryClient } from "@tanstack/react-query";
import { useCallback, useRef } from "react";
import { ApiError } from "../../lib/api-errors";
import type { TurnStreaming } from "./api/send-chat-message";
import { assistantMessageFrom, localNarratorMessage, putInPlaceOf, withStoredId } from "./local-messages";

/** After a Stop, how long the server gets to keep the words and refund the rest before they are read back. */
const STOP_SETTLE_MS = 800;

/** A paid turn: a send, a retry or a continuation, whose words arrive as the narrator writes them. */
export interface TurnChange {
  kind: "turn";
  mode: ChatMode;
  /** A send: the player's words, shown at once. */
  question?: ChatMessage;
  /** The answer the new words take the place of (a retry's, a continuation's); none: they follow the list. */
  replaces?: ChatMessage;
  /** Continue: the words so far stay and the new ones follow them. */
  grows?: boolean;
  /** New words keep the picture shown. */
  keepsScene?: boolean;
  call: (streaming: TurnStreaming) => Promise<ChatResponse>;
}

/** A free change: shown at once where its outcome is known, then as the server answered it. */
export interface FreeChange<R = unknown> {
  kind: "change";
  optimistic?: (list: ChatMessage[]) => ChatMessage[];
  call: () => Promise<R>;
  /** The list once the server answered (before it is read again). */
  answered?(list: ChatMessage[], result: R): ChatMessage[];
}

/** A free change, typed by what its call answers. */
export const freeChange = <R>(change: Omit<FreeChange<R>, "kind">): FreeChange<R> => ({
  kind: "change",
  ...change,
});

export type ConversationChange = TurnChange | FreeChange;

/** How a change ended: answered, or stopped by the player (with the words kept, if any were written). */
export type ChangeOutcome =
  | { kind: "answered"; response?: ChatResponse }
  | { kind: "stopped"; kept: boolean };

export interface ConversationEvents {
  /** The narrator's words started or stopped arriving. */
  onWriting: (writing: boolean) => void;
  /** A turn was answered (its response carries the balance) or a free change was made. */
  onAnswered: (change: ConversationChange, response: ChatResponse | undefined) => void;
  /** The server kept the change (now, or once a stopped turn's words are read back). */
  onKept: () => void;
  onFailed: (error: unknown) => void;
  /** The conversation is read again (after a Stop, once the server has settled it). */
  onReadBack: () => void;
}

/**
 * When the conversation is read again after a change: at once after a free change, a retry or a continuation
 * (versions, order and ids are the server's), and after a failure the server answered (it may have done part of
 * it); shortly after a Stop (the server keeps the words and refunds the rest once it notices); not after a new
 * turn's answer, which holds all the server stored (ids, media status), nor after a failure that never reached
 * the server (reading again would fail too; the connection's return reads the conversation again).
 */
function readBackAfter(
  change: ConversationChange,
  outcome: ChangeOutcome | undefined,
  error: unknown,
): "now" | "soon" | "never" {
  if (outcome?.kind === "stopped") return "soon";
  if (!outcome) return error instanceof ApiError && error.status > 0 ? "now" : "never";
  return change.kind === "turn" && change.question ? "never" : "now";
}

export function useConversationMutation(queryKey: QueryKey, events: ConversationEvents) {
  const queryClient = useQueryClient();
  const stopper = useRef<AbortController | null>(null);
  const setList = (update: (list: ChatMessage[]) => ChatMessage[]) =>
    queryClient.setQueryData<ChatMessage[]>(queryKey, (list = []) => update(list));

  /** Streams a paid turn into the list; resolves with where its words are, or rejects with its failure. */
  const streamTurn = async (change: TurnChange): Promise<ChangeOutcome> => {
    const { replaces, keepsScene, mode } = change;
    // A retry or a continuation is spoken by whoever spoke the answer it replaces.
    const written: ChatMessage = {
      ...localNarratorMessage(mode),
      ...(replaces?.speaker ? { speaker: replaces.speaker } : {}),
    };
    let places = [written.id, ...(replaces ? [replaces.id] : [])];
    // Continue: the words so far stay and the new ones follow them; new words keep the picture shown.
    let grows = change.grows ?? false;
    const base = grows ? (replaces?.content ?? "") : "";
    let scene =
      keepsScene && replaces
        ? {
            image_url: replaces.image_url,
            video_url: replaces.video_url,
            media_status: replaces.media_status,
          }
        : {};
    let added = "";
    const controller = new AbortController();
    stopper.current = controller;
    const onText = (piece: string) => {
      added += piece;
      written.content = grows ? carryOn(base, added) : added;
      events.onWriting(true);
      setList((list) => putInPlaceOf(list, places, { ...written, ...scene }));
    };
    // A group scene's speaker (decision 0164): their name and portrait show at once, over the words to come.
    // There a continuation is the next character's own message, not more words of the last one.
    const onSpeaker = (speaker: { card_id: string; name: string }) => {
      if (grows) {
        grows = false;
        places = [written.id];
        scene = {};
        written.content = added;
      }
      written.speaker = speaker;
      events.onWriting(true);
      setList((list) => putInPlaceOf(list, places, { ...written, ...scene }));
    };
    try {
      const response = await change.call({ onText, onSpeaker, signal: controller.signal });
      setList((list) => {
        const answered = putInPlaceOf(list, places, { ...assistantMessageFrom(response, mode), ...scene });
        // The player's message takes its stored id, so it can be edited like any other.
        const stored = response.user_message_id;
        return change.question && stored ? withStoredId(answered, change.question.id, stored) : answered;
      });
      return { kind: "answered", response };
    } catch (error) {
      if (!controller.signal.aborted) throw error;
      const kept = added.trim() !== "";
      if (kept) {
        setList((list) =>
          putInPlaceOf(list, places, {
            ...written,
            ...scene,
            content: written.content.trim(),
            stopped: true,
          }),
        );
      }
      return { kind: "stopped", kept };
    } finally {
      stopper.current = null;
      events.onWriting(false);
    }
  };

  const mutation = useMutation<
    ChangeOutcome,
    unknown,
    ConversationChange,
    { snapshot: ChatMessage[] | undefined }
  >({
    onMutate: async (change) => {
      // A read of the conversation under way would overwrite what is shown now.
      await queryClient.cancelQueries({ queryKey, exact: true });
      const snapshot = queryClient.getQueryData<ChatMessage[]>(queryKey);
      if (change.kind === "turn" && change.question) {
        const { question } = change;
        setList((list) => [...list, question]);
      }
      if (change.kind === "change" && change.optimistic) setList(change.optimistic);
      return { snapshot };
    },
    mutationFn: async (change) => {
      if (change.kind === "turn") return streamTurn(change);
      const result = await change.call();
      const { answered } = change;
      if (answered) setList((list) => answered(list, result));
      return { kind: "answered" };
    },
    onSuccess: (outcome, change, context) => {
      if (outcome.kind === "answered") {
        events.onAnswered(change, outcome.response);
        events.onKept();
      } else if (!outcome.kept) {
        // Stopped before the first word: nothing was kept, the conversation is as it was.
        queryClient.setQueryData(queryKey, context.snapshot);
      }
    },
    onError: (error, _change, context) => {
      if (context) queryClient.setQueryData(queryKey, context.snapshot);
      events.onFailed(error);
    },
    onSettled: (outcome, error, change) => {
      const when = readBackAfter(change, outcome, error);
      if (when === "now") void queryClient.invalidateQueries({ queryKey, exact: true });
      if (when !== "soon") return;
      setTimeout(() => {
        events.onReadBack();
        void queryClient.invalidateQueries({ queryKey, exact: true });
        if (outcome?.kind === "stopped" && outcome.kept) events.onKept();
      }, STOP_SETTLE_MS);
    },
  });

  /** Stops the narrator of the turn under way. */
  const stop = useCallback(() => stopper.current?.abort(), []);
  /** Makes the change; resolves with how it ended, or rejects (the list is back as it was). */
  return { change: mutation.mutateAsync, stop };
}
