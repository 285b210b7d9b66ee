// One conversation with the narrator, for a story or for the main chat: its messages are a query (server
// state); every change the player makes goes through one mutation (use-conversation-mutation.ts: optimistic,
// rolled back on failure, read again after); the media still being made are settled by event or poll
// (use-media-settling.ts); the canvas follows the newest media (use-conversation-canvas.ts).
import type { ChatMessage, ChatMode, ChatResponse } from "@storyverse/contract/chat";
import type { RetryWhat } from "@storyverse/contract/story-craft";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { i18n } from "../../i18n/i18n";
import { translateServerMessage } from "../../i18n/server-messages";
import { ApiError, errorMessage } from "../../lib/api-errors";
import { useBanner } from "../banner-provider";
import { refreshCreditBalance } from "../credits/credit-balance";
import { isOutOfCreditsError, shortfallOf } from "../credits/out-of-credits";
import { useQuotaPrompt } from "../credits/quota-prompt-provider";
import type { CanvasMedia } from "./canvas-media";
import type { ChatBackend } from "./chat-backend";
import { localUserMessage, withoutNewestExchange } from "./local-messages";
import { readNewerPage, readOlderPage, readPageAround, usePageWindow } from "./message-pages";
import { useConversationCanvas } from "./use-conversation-canvas";
import {
  type ChangeOutcome,
  type ConversationChange,
  freeChange,
  useConversationMutation,
} from "./use-conversation-mutation";
import { type PollingStop, useMediaSettling } from "./use-media-settling";

/** Signed media URLs last an hour; a failed load re-reads the conversation at most this often. */
const EXPIRED_MEDIA_REFETCH_MS = 30_000;

/** What the conversation offers on its messages; each resolves false when it was refused or failed. */
export interface CraftActions {
  retry: (messageId: string, what: RetryWhat) => Promise<boolean>;
  continueStory: () => Promise<boolean>;
  undo: () => Promise<boolean>;
  redo: () => Promise<boolean>;
  /** How many undone exchanges Redo can bring back (this tab's; a new turn or retry ends Redo). */
  redoable: number;
  edit: (messageId: string, content: string) => Promise<boolean>;
  selectVersion: (messageId: string, version: number) => Promise<boolean>;
  /** The turn shows an edit of its picture (or the one it was made from) in its place (decision 0163). */
  showMedia: (messageId: string, galleryItemId: string) => Promise<boolean>;
  /** A group scene: the next character (or this one) speaks without a line from the player (decision 0164). */
  speakNext?: (speakerId: string | null) => Promise<boolean>;
}

/** A conversation read a page at a time: where its loaded messages sit, and how to load more. */
export interface ConversationPaging {
  /** Older messages than the loaded ones exist (scrolling up loads them). */
  hasOlder: boolean;
  /** Newer messages than the loaded ones exist (after a jump back; scrolling down loads them). */
  hasNewer: boolean;
  /** Narrator messages before the first loaded one (turn numbers). */
  turnsBefore: number;
  /** Each resolves false when nothing was loaded (none left, or a load already under way). */
  loadOlder: () => Promise<boolean>;
  loadNewer: () => Promise<boolean>;
  /** Loads the page around a message that is not loaded (a checkpoint). */
  loadAround: (messageId: string) => Promise<void>;
}

export interface ChatSession {
  /** The loaded messages, oldest first (the whole conversation unless it is paged). */
  messages: ChatMessage[];
  /** Story chats: paged (null for the main chat, which is read whole). */
  paging: ConversationPaging | null;
  isLoading: boolean;
  error: Error | null;
  retry: () => void;
  /** A turn is on its way to the narrator. */
  sending: boolean;
  /** Some message's media is still being made (the next turn can be sent meanwhile). */
  generating: boolean;
  /** A turn sent from the composer will make this scene once its words are written. */
  sceneComing: "image" | "video" | null;
  /** Messages whose polling ended without media: it took too long, or its status could not be checked. */
  pollingStopped: ReadonlyMap<string, PollingStop>;
  /** Sends a turn; resolves false when it was refused or failed (the words can go back in the box). */
  send: (prompt: string, mode: ChatMode) => Promise<boolean>;
  /** The narrator's words are arriving (the Stop button replaces Send). */
  writing: boolean;
  /** Stops the narrator: the words so far stay, only the text is charged, no media is made. */
  stop: () => void;
  canvas: CanvasMedia | null;
  /** A media element failed to load: its signed URL may have expired, so re-read the conversation. */
  reportMediaError: () => void;
  /** A turn's media changed outside the conversation (an extended clip, decision 0160): read it again. */
  reloadMedia: () => void;
  /** Retry, continue, undo, edit and versions (story chats only). */
  craft: CraftActions | null;
}

export function useChatSession(backend: ChatBackend, initialCanvas: CanvasMedia | null = null): ChatSession {
  const queryClient = useQueryClient();
  const { showError } = useBanner();
  const { showQuotaExceeded } = useQuotaPrompt();
  const backendRef = useRef(backend);
  backendRef.current = backend;
  const { queryKey } = backend;
  const query = useQuery({
    queryKey,
    queryFn: ({ signal }) => backendRef.current.fetchMessages(signal),
    // Kept in step by the conversation's changes and media; read again when opened, after each change and
    // when a media URL has expired.
    staleTime: Number.POSITIVE_INFINITY,
    refetchOnMount: backend.refreshOnOpen ? "always" : true,
  });
  const messages = query.data ?? EMPTY;
  const paged = Boolean(backend.pages);
  const loaded = usePageWindow(queryKey, paged);
  const paging = useMemo<ConversationPaging | null>(() => {
    if (!paged) return null;
    const read = backendRef.current.pages;
    if (!read) return null;
    return {
      hasOlder: loaded.older !== null,
      hasNewer: loaded.newer !== null,
      turnsBefore: loaded.turnsBefore,
      loadOlder: () => readOlderPage(queryClient, queryKey, read),
      loadNewer: () => readNewerPage(queryClient, queryKey, read),
      loadAround: (messageId) => readPageAround(queryClient, queryKey, read, messageId),
    };
  }, [paged, loaded, queryClient, queryKey]);

  /** A turn is under way (held from the press, before its mutation has started). */
  const busy = useRef(false);
  const [sending, setSending] = useState(false);
  const [sceneComing, setSceneComing] = useState<"image" | "video" | null>(null);
  const [writing, setWriting] = useState(false);
  const [redoable, setRedoable] = useState(0);

  const { canvas, followNextRead } = useConversationCanvas(query.data, initialCanvas, backend.onCanvasChange);
  const { generating, pollingStopped } = useMediaSettling(queryKey, messages, backendRef, busy);

  const reportFailure = useCallback(
    (error: unknown) => {
      if (isOutOfCreditsError(error)) {
        showQuotaExceeded(shortfallOf(error));
        void refreshCreditBalance(queryClient);
      } else {
        showError(
          error instanceof ApiError && error.message
            ? translateServerMessage(errorMessage(error))
            : i18n.t("conversation:chatSession.sendFailed"),
        );
      }
    },
    [queryClient, showError, showQuotaExceeded],
  );

  const { change, stop } = useConversationMutation(queryKey, {
    onWriting: setWriting,
    onAnswered: (made, response) => {
      if (made.kind === "turn") {
        if (response) void refreshCreditBalance(queryClient, response.quota_info);
        // A new turn or retry ends Redo.
        setRedoable(0);
      } else {
        // A free change alters what the story shows: the canvas follows the server's list.
        followNextRead();
      }
    },
    onKept: () => backendRef.current.onSent?.(),
    onFailed: reportFailure,
    onReadBack: () => void refreshCreditBalance(queryClient),
  });

  // How the newest change ended: a group's "all" order reads who answers next from it.
  const lastOutcome = useRef<ChangeOutcome | null>(null);
  /** Makes a change; true when it was made (a stopped turn: when words were kept), false when it failed. */
  const make = useCallback(
    async (made: ConversationChange) => {
      const turn = made.kind === "turn";
      if (turn) {
        // One turn at a time; a scene still being painted never holds the next one.
        if (busy.current) return false;
        busy.current = true;
        setSending(true);
        setSceneComing(made.question && made.mode !== "chat" ? made.mode : null);
      }
      try {
        const outcome = await change(made);
        lastOutcome.current = outcome;
        return outcome.kind === "answered" || outcome.kept;
      } catch {
        return false;
      } finally {
        if (turn) {
          busy.current = false;
          setSending(false);
          setSceneComing(null);
        }
      }
    },
    [change],
  );

  /** A group's next speakers, one after another ("all" order), until one is stopped or fails. */
  const speakInTurn = useCallback(
    async (speakerIds: string[]) => {
      for (const speakerId of speakerIds) {
        const speakNext = backendRef.current.craft?.speakNext;
        if (!speakNext) return;
        lastOutcome.current = null;
        const made = await make({
          kind: "turn",
          mode: "chat",
          call: (streaming) => speakNext(speakerId, streaming),
        });
        if (!made || (lastOutcome.current as ChangeOutcome | null)?.kind !== "answered") return;
      }
    },
    [make],
  );

  const pagingRef = useRef(paging);
  pagingRef.current = paging;
  const send = useCallback(
    async (prompt: string, mode: ChatMode) => {
      const text = prompt.trim();
      if (!text || busy.current) return false;
      // Shown around an older message (a checkpoint): the turn is played at the story's end, so that is read first.
      if (pagingRef.current?.hasNewer) await queryClient.refetchQueries({ queryKey, exact: true });
      const question = localUserMessage(backendRef.current.shownAs?.(text) ?? text, mode);
      lastOutcome.current = null;
      const made = await make({
        kind: "turn",
        mode,
        question,
        call: (streaming) => backendRef.current.send(text, mode, streaming),
      });
      const outcome = lastOutcome.current as ChangeOutcome | null;
      const next = made && outcome?.kind === "answered" ? outcome.response?.next_speakers : undefined;
      // The composer is free at once; the others answer one after another, each its own paid turn.
      if (next?.length) void speakInTurn(next.map((speaker) => speaker.card_id));
      return made;
    },
    [make, queryClient, queryKey, speakInTurn],
  );

  // --- story craft --------------------------------------------------------------------------------------
  const craftBackend = backend.craft;
  // Redo's stack is the server's: read once when the conversation opens, then kept in step by this tab's actions.
  const readRedoable = craftBackend?.redoable;
  const storedRedo = useQuery({
    queryKey: [...queryKey, "redoable"],
    queryFn: ({ signal }) => (readRedoable ? readRedoable(signal) : Promise.resolve(0)),
    enabled: Boolean(readRedoable),
    staleTime: Number.POSITIVE_INFINITY,
  });
  const redoKnown = useRef(false);
  useEffect(() => {
    if (redoKnown.current || storedRedo.data === undefined) return;
    redoKnown.current = true;
    setRedoable((n) => Math.max(n, storedRedo.data));
  }, [storedRedo.data]);

  const craft = useMemo<CraftActions | null>(() => {
    if (!craftBackend) return null;
    const list = () => queryClient.getQueryData<ChatMessage[]>(queryKey) ?? [];
    const replace = (messages: ChatMessage[], messageId: string, message: ChatMessage) =>
      messages.map((m) => (m.id === messageId ? message : m));
    return {
      retry: (messageId, what) => {
        const message = list().find((m) => m.id === messageId);
        // A new scene keeps the words on screen while it starts; new words keep the picture.
        const mode = what === "media" && message?.mode === "chat" ? "image" : (message?.mode ?? "image");
        return make({
          kind: "turn",
          mode,
          ...(message ? { replaces: message } : {}),
          ...(what === "text" ? { keepsScene: true } : what === "media" ? { grows: true } : {}),
          call: (streaming) => craftBackend.retry(messageId, what, streaming),
        });
      },
      continueStory: () => {
        const newest = list().findLast((m) => m.role === "assistant");
        return make({
          kind: "turn",
          mode: newest?.mode ?? "chat",
          ...(newest ? { replaces: newest } : {}),
          grows: true,
          keepsScene: true,
          call: (streaming): Promise<ChatResponse> => craftBackend.continueStory(streaming),
        });
      },
      undo: async () => {
        const done = await make({
          kind: "change",
          optimistic: withoutNewestExchange,
          call: craftBackend.undo,
        });
        if (done) setRedoable((n) => n + 1);
        return done;
      },
      redo: async () => {
        const done = await make(
          freeChange({ call: craftBackend.redo, answered: (messages, brought) => [...messages, ...brought] }),
        );
        // Refused (another tab's turn ended Redo): nothing is left to bring back here either.
        setRedoable((n) => (done ? Math.max(0, n - 1) : 0));
        return done;
      },
      redoable,
      edit: (messageId, content) =>
        make(
          freeChange({
            optimistic: (messages) => messages.map((m) => (m.id === messageId ? { ...m, content } : m)),
            call: () => craftBackend.edit(messageId, content),
            answered: (messages, edited) => replace(messages, messageId, edited),
          }),
        ),
      selectVersion: (messageId, version) =>
        make(
          freeChange({
            call: () => craftBackend.selectVersion(messageId, version),
            answered: (messages, chosen) => replace(messages, messageId, chosen),
          }),
        ),
      showMedia: (messageId, galleryItemId) =>
        make(
          freeChange({
            call: () => craftBackend.showMedia(messageId, galleryItemId),
            // On a branch that shared the turn the answer is the branch's own copy: it takes the shown one's place.
            answered: (messages, shown) => replace(messages, messageId, shown),
          }),
        ),
      ...(craftBackend.speakNext
        ? {
            speakNext: (speakerId: string | null) => {
              const speak = craftBackend.speakNext!;
              return make({ kind: "turn", mode: "chat", call: (streaming) => speak(speakerId, streaming) });
            },
          }
        : {}),
    };
  }, [craftBackend, queryClient, queryKey, make, redoable]);

  // --- expired media URLs ----------------------------------------------------------------------------------
  const { refetch } = query;
  const lastRefetch = useRef(0);
  const reportMediaError = useCallback(() => {
    const now = Date.now();
    if (busy.current || now - lastRefetch.current < EXPIRED_MEDIA_REFETCH_MS) return;
    lastRefetch.current = now;
    // The same media with a fresh address must replace the dead one, whatever its timestamp.
    followNextRead();
    void refetch();
  }, [refetch, followNextRead]);
  const reloadMedia = useCallback(() => {
    followNextRead();
    void refetch();
  }, [refetch, followNextRead]);

  return {
    messages,
    paging,
    isLoading: query.isPending,
    error: query.error,
    retry: () => void refetch(),
    sending,
    generating,
    sceneComing,
    pollingStopped,
    send,
    writing,
    stop,
    canvas,
    reportMediaError,
    reloadMedia,
    craft,
  };
}

const EMPTY: ChatMessage[] = [];
