// One conversation with the narrator, for a story or for the main chat: the messages (server state,
// kept in step locally), the optimistic send, the media of every message whose picture or video is still
// being made (by event while the event stream is live, with a slow poll behind it; by the spec's polling
// schedule otherwise), and what the canvas shows.
import type { ChatMessage, ChatMode, ChatResponse, MediaStatus } from "@storyverse/contract/chat";
import type { MediaEvent } from "@storyverse/contract/events";
import { carryOn, type RetryWhat } from "@storyverse/contract/story-craft";
import { type QueryClient, type QueryKey, useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { ApiError } from "../../lib/api-errors";
import { useBanner } from "../banner-provider";
import { useConnection, useOnReconnect } from "../connectivity/connectivity-provider";
import { refreshCreditBalance } from "../credits/credit-balance";
import { isOutOfCreditsError, shortfallOf } from "../credits/out-of-credits";
import { useQuotaPrompt } from "../credits/quota-prompt-provider";
import { GALLERY_KEY } from "../gallery/gallery-page";
import { USER_IMAGES_KEY } from "../gallery/user-images";
import { heardMediaEvent, onMediaEvent, useLiveConnected } from "../live/live-events";
import type { TurnStreaming } from "./api/send-chat-message";
import {
  applyCanvasMedia,
  type CanvasMedia,
  canvasMediaFor,
  newestMediaMessage,
  sameCanvasMedia,
} from "./canvas-media";
import { LIVE_POLL_SCHEDULE, pollMediaStatus } from "./media-polling";

/**
 * Why a message's polling ended without its media. "offline": the server could not be reached, so its
 * status cannot be checked now; the checks start again when the server answers.
 */
export type PollingStop = "timed-out" | "check-failed" | "offline";

export const SEND_FAILED_MESSAGE = "Failed to send message";
/** Signed media URLs last an hour; a failed load re-reads the conversation at most this often. */
const EXPIRED_MEDIA_REFETCH_MS = 30_000;
/** After a Stop, how long the server gets to keep the words and refund the rest before they are read back. */
const STOP_SETTLE_MS = 800;

/**
 * After Stop the server keeps what was written (or nothing, before the first word) and refunds the rest
 * once it notices: the balance and the conversation are read back shortly, and `onSent` told if words stayed.
 */
function readBackAfterStop(queryClient: QueryClient, queryKey: QueryKey, onSent: (() => void) | undefined) {
  setTimeout(() => {
    void refreshCreditBalance(queryClient);
    void queryClient.invalidateQueries({ queryKey });
    onSent?.();
  }, STOP_SETTLE_MS);
}

export interface ChatBackend {
  /** The conversation's query key, and how to read it. */
  queryKey: QueryKey;
  fetchMessages: (signal: AbortSignal) => Promise<ChatMessage[]>;
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
}

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
}

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
  };
}

export interface ChatSession {
  messages: ChatMessage[];
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
    // Kept in step locally (sends, polling); read again when opened and when a media URL has expired.
    staleTime: Number.POSITIVE_INFINITY,
    refetchOnMount: backend.refreshOnOpen ? "always" : true,
  });

  const [sending, setSending] = useState(false);
  const [redoable, setRedoable] = useState(0);
  const sendingRef = useRef(false);
  const [sceneComing, setSceneComing] = useState<"image" | "video" | null>(null);
  const [writing, setWriting] = useState(false);
  const stopRef = useRef<AbortController | null>(null);
  const stop = useCallback(() => stopRef.current?.abort(), []);
  const [pollingStopped, setPollingStopped] = useState<ReadonlyMap<string, PollingStop>>(() => new Map());

  const messages = query.data ?? EMPTY;
  const pending = useMemo(
    () =>
      messages.filter(
        (m) =>
          m.role === "assistant" &&
          m.media_status === "pending" &&
          !isLocalMessage(m) &&
          !pollingStopped.has(m.id),
      ),
    [messages, pollingStopped],
  );
  const generating = pending.length > 0;

  const patchMessage = useCallback(
    (id: string, patch: Partial<ChatMessage>) => {
      queryClient.setQueryData<ChatMessage[]>(queryKey, (list) =>
        list?.map((m) => (m.id === id ? { ...m, ...patch } : m)),
      );
    },
    [queryClient, queryKey],
  );

  // --- the canvas: the newest media, forced when the conversation is first read -----------------------
  const [canvas, setCanvas] = useState<CanvasMedia | null>(initialCanvas);
  const forceSync = useRef(true);
  useEffect(() => {
    if (!query.data) return;
    const newest = newestMediaMessage(query.data);
    const next = newest ? canvasMediaFor(newest) : null;
    const force = forceSync.current;
    forceSync.current = false;
    setCanvas((current) => {
      const updated = applyCanvasMedia(current, next, { force });
      return sameCanvasMedia(current, updated) ? current : updated;
    });
  }, [query.data]);

  const canvasSeen = useRef(canvas);
  useEffect(() => {
    if (canvasSeen.current === canvas) return;
    canvasSeen.current = canvas;
    backendRef.current.onCanvasChange?.(canvas);
  }, [canvas]);

  // --- media: by event, and one poller per message whose media is pending ----------------------------------
  /** A message's media ended (by event or poll): show it, or its failure. */
  const settleMedia = useCallback(
    (id: string, outcome: Pick<MediaEvent, "status" | "image_url" | "video_url" | "error">) => {
      if (outcome.status === "completed") {
        const { image_url, video_url } = outcome;
        const patch = { image_url, video_url, media_status: "completed" as const, media_error: null };
        patchMessage(id, patch);
        const message = queryClient.getQueryData<ChatMessage[]>(queryKey)?.find((m) => m.id === id);
        if (message) backendRef.current.onMediaCompleted?.({ ...message, ...patch });
        void queryClient.invalidateQueries({ queryKey: GALLERY_KEY });
        void queryClient.invalidateQueries({ queryKey: USER_IMAGES_KEY });
      } else {
        patchMessage(id, { media_status: "failed", media_error: outcome.error });
        // What was not delivered was refunded: show the balance as it now is.
        void refreshCreditBalance(queryClient);
      }
    },
    [patchMessage, queryClient, queryKey],
  );

  useEffect(
    () =>
      onMediaEvent((event) => {
        const message = queryClient
          .getQueryData<ChatMessage[]>(queryKey)
          ?.find((m) => m.id === event.message_id);
        if (message) {
          if (message.media_status === "pending") settleMedia(message.id, event);
          return;
        }
        // A turn from another tab: the stream marked this conversation stale if it is this one's; read it
        // again (not while a send of ours is settling: its answer goes into the list itself).
        if (queryClient.getQueryState(queryKey)?.isInvalidated && !sendingRef.current) {
          void queryClient.invalidateQueries({ queryKey, exact: true });
        }
      }),
    [queryClient, queryKey, settleMedia],
  );

  // While the event stream is live, a poll only backs it up (slowly); otherwise the spec's schedule.
  const live = useLiveConnected();
  const pollers = useRef(new Map<string, () => void>());
  const pollingLive = useRef(live);
  const pendingIds = pending.map((m) => m.id).join(",");
  useEffect(() => {
    const wanted = new Set(pendingIds ? pendingIds.split(",") : []);
    const scheduleChanged = pollingLive.current !== live;
    pollingLive.current = live;
    for (const [id, stop] of pollers.current) {
      if (scheduleChanged || !wanted.has(id)) {
        stop();
        pollers.current.delete(id);
      }
    }
    for (const id of wanted) {
      if (pollers.current.has(id)) continue;
      // Its event may have come before the answer that listed it.
      const heard = heardMediaEvent(id);
      if (heard) {
        settleMedia(id, heard);
        continue;
      }
      const stop = pollMediaStatus({
        ...(live ? LIVE_POLL_SCHEDULE : {}),
        check: (signal) => backendRef.current.mediaStatus(id, signal),
        onOutcome: (outcome) => {
          pollers.current.delete(id);
          if (outcome.kind === "completed" || outcome.kind === "failed") {
            const { image_url, video_url, media_generation_error } = outcome.status;
            settleMedia(id, { status: outcome.kind, image_url, video_url, error: media_generation_error });
          } else {
            const why = outcome.kind === "timeout" ? "timed-out" : "check-failed";
            setPollingStopped((stopped) => new Map(stopped).set(id, why));
          }
        },
      });
      pollers.current.set(id, stop);
    }
  }, [pendingIds, live, settleMedia]);

  // --- lost connection: no turn hangs on a server that is gone --------------------------------------------
  // The pending media end with 'Failed to check media status.' and the input unlocks; when the server
  // answers again (the provider then re-reads the conversation) their checks start again.
  const { online } = useConnection();
  useEffect(() => {
    if (online || !pendingIds) return;
    setPollingStopped((stopped) => {
      const next = new Map(stopped);
      for (const id of pendingIds.split(",")) next.set(id, "offline");
      return next;
    });
  }, [online, pendingIds]);
  useOnReconnect(() => {
    setPollingStopped((stopped) => {
      if (![...stopped.values()].includes("offline")) return stopped;
      return new Map([...stopped].filter(([, why]) => why !== "offline"));
    });
  });

  useEffect(() => {
    const active = pollers.current;
    return () => {
      for (const stop of active.values()) stop();
      active.clear();
    };
  }, []);

  // --- sending -------------------------------------------------------------------------------------------
  const reportFailure = useCallback(
    (error: unknown) => {
      if (isOutOfCreditsError(error)) {
        showQuotaExceeded(shortfallOf(error));
        void refreshCreditBalance(queryClient);
      } else {
        showError(error instanceof ApiError && error.message ? error.message : SEND_FAILED_MESSAGE);
      }
    },
    [queryClient, showError, showQuotaExceeded],
  );

  const send = useCallback(
    async (prompt: string, mode: ChatMode) => {
      const text = prompt.trim();
      // A scene still being painted never holds the next turn: its media land on their own message.
      if (!text || sendingRef.current) return false;
      sendingRef.current = true;
      setSending(true);
      setSceneComing(mode === "chat" ? null : mode);
      const local = localUserMessage(backendRef.current.shownAs?.(text) ?? text, mode);
      queryClient.setQueryData<ChatMessage[]>(queryKey, (list) => [...(list ?? []), local]);
      // The narrator's words as they arrive, shown as its message until the answer replaces it.
      const written = { ...localUserMessage("", mode), role: "assistant" as const };
      const withoutLocal = (list: ChatMessage[] | undefined) =>
        list?.filter((m) => m.id !== local.id && m.id !== written.id);
      const stopper = new AbortController();
      stopRef.current = stopper;
      const onText = (piece: string) => {
        written.content += piece;
        setWriting(true);
        queryClient.setQueryData<ChatMessage[]>(queryKey, (list) => [
          ...(list ?? []).filter((m) => m.id !== written.id),
          { ...written },
        ]);
      };
      try {
        const response = await backendRef.current.send(text, mode, { onText, signal: stopper.signal });
        void refreshCreditBalance(queryClient, response.quota_info);
        const answer = assistantMessageFrom(response, mode);
        // The player's message takes its stored id, so it can be edited like any other.
        const stored = response.user_message_id;
        const mine = stored ? { ...local, id: stored, _id: stored, message_id: stored } : local;
        queryClient.setQueryData<ChatMessage[]>(queryKey, (list) => [
          ...(list ?? []).filter((m) => m.id !== written.id).map((m) => (m.id === local.id ? mine : m)),
          answer,
        ]);
        setRedoable(0);
        backendRef.current.onSent?.();
        return true;
      } catch (error) {
        if (stopper.signal.aborted) {
          // Stopped: the server keeps what was written (or nothing, before the first word) and refunds
          // the rest once it notices; read both back shortly.
          const kept = written.content.trim() !== "";
          queryClient.setQueryData<ChatMessage[]>(queryKey, (list) =>
            kept
              ? list?.map((m) =>
                  m.id === written.id ? { ...written, content: written.content.trim(), stopped: true } : m,
                )
              : withoutLocal(list),
          );
          readBackAfterStop(queryClient, queryKey, kept ? () => backendRef.current.onSent?.() : undefined);
          return kept;
        }
        queryClient.setQueryData<ChatMessage[]>(queryKey, withoutLocal);
        reportFailure(error);
        return false;
      } finally {
        stopRef.current = null;
        sendingRef.current = false;
        setSending(false);
        setSceneComing(null);
        setWriting(false);
      }
    },
    [queryClient, queryKey, reportFailure],
  );

  // --- story craft: each reads the conversation again afterwards, so versions and order are the server's --
  const { refetch } = query;
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
    /** Runs a call, then reads the conversation again; a failure is shown and resolves false. */
    const settle = async (work: () => Promise<unknown>) => {
      try {
        await work();
        await refetch();
        backendRef.current.onSent?.();
        return true;
      } catch (error) {
        reportFailure(error);
        return false;
      }
    };
    /**
     * A paid turn (retry, continue), streamed as a turn is: the spinner until the first word, then the words
     * as they arrive (a retry's in place of the answer it retries, a continuation after the newest message)
     * with Stop in place of Send; then the server's list, with its versions. A Stop keeps the words so far,
     * as the server does (a retry's become a new version; before the first word nothing changes).
     */
    const paidTurn = async (
      mode: ChatMode,
      replaces: string | null,
      work: (streaming: TurnStreaming) => Promise<ChatResponse>,
      how: { grows?: boolean; keepsScene?: boolean } = {},
    ) => {
      if (sendingRef.current) return false;
      sendingRef.current = true;
      setSending(true);
      const original = replaces
        ? queryClient.getQueryData<ChatMessage[]>(queryKey)?.find((m) => m.id === replaces)
        : undefined;
      const written = { ...localUserMessage("", mode), role: "assistant" as const };
      // Continue: the words so far stay and the new ones follow them; new words keep the picture shown.
      const base = how.grows ? (original?.content ?? "") : "";
      const scene =
        how.keepsScene && original
          ? {
              image_url: original.image_url,
              video_url: original.video_url,
              media_status: original.media_status,
            }
          : {};
      let added = "";
      /** Puts `message` where the new answer goes: over the words so far, else over the retried answer, else last. */
      const show = (message: ChatMessage) =>
        queryClient.setQueryData<ChatMessage[]>(queryKey, (list = []) => {
          const at = list.findIndex((m) => m.id === written.id || (original && m.id === original.id));
          return at < 0 ? [...list, message] : list.map((m, i) => (i === at ? message : m));
        });
      /** Nothing new was kept: the retried answer comes back, the words so far go. */
      const restore = () =>
        queryClient.setQueryData<ChatMessage[]>(queryKey, (list) =>
          original
            ? list?.map((m) => (m.id === written.id ? original : m))
            : list?.filter((m) => m.id !== written.id),
        );
      const stopper = new AbortController();
      stopRef.current = stopper;
      const onText = (piece: string) => {
        added += piece;
        written.content = how.grows ? carryOn(base, added) : added;
        setWriting(true);
        show({ ...written, ...scene });
      };
      try {
        const response = await work({ onText, signal: stopper.signal });
        stopRef.current = null;
        setWriting(false);
        void refreshCreditBalance(queryClient, response.quota_info);
        show({ ...assistantMessageFrom(response, mode), ...scene });
        setRedoable(0);
        await refetch();
        backendRef.current.onSent?.();
        return true;
      } catch (error) {
        if (stopper.signal.aborted) {
          const kept = added.trim() !== "";
          if (kept) show({ ...written, ...scene, content: written.content.trim(), stopped: true });
          else restore();
          readBackAfterStop(queryClient, queryKey, kept ? () => backendRef.current.onSent?.() : undefined);
          return kept;
        }
        restore();
        reportFailure(error);
        return false;
      } finally {
        stopRef.current = null;
        sendingRef.current = false;
        setSending(false);
        setWriting(false);
      }
    };
    /** A free change; the canvas follows what the story now shows. */
    const change = (work: () => Promise<unknown>) =>
      settle(async () => {
        await work();
        forceSync.current = true;
      });
    const newestNarrator = () =>
      queryClient.getQueryData<ChatMessage[]>(queryKey)?.findLast((m) => m.role === "assistant");
    return {
      retry: (messageId, what) => {
        const list = queryClient.getQueryData<ChatMessage[]>(queryKey);
        const message = list?.find((m) => m.id === messageId);
        // A new scene keeps the words on screen while it starts; new words keep the picture.
        const mode = what === "media" && message?.mode === "chat" ? "image" : (message?.mode ?? "image");
        return paidTurn(
          mode,
          messageId,
          (streaming) => craftBackend.retry(messageId, what, streaming),
          what === "text" ? { keepsScene: true } : what === "media" ? { grows: true } : {},
        );
      },
      continueStory: () => {
        const newest = newestNarrator();
        return paidTurn(
          newest?.mode ?? "chat",
          newest?.id ?? null,
          (streaming) => craftBackend.continueStory(streaming),
          { grows: true, keepsScene: true },
        );
      },
      undo: async () => {
        const done = await change(() => craftBackend.undo());
        if (done) setRedoable((n) => n + 1);
        return done;
      },
      redo: async () => {
        const done = await change(() => craftBackend.redo());
        // Refused (another tab's turn ended Redo): nothing is left to bring back here either.
        setRedoable((n) => (done ? Math.max(0, n - 1) : 0));
        return done;
      },
      redoable,
      edit: (messageId, content) => change(() => craftBackend.edit(messageId, content)),
      selectVersion: (messageId, version) => change(() => craftBackend.selectVersion(messageId, version)),
    };
  }, [craftBackend, queryClient, queryKey, refetch, reportFailure, redoable]);

  // --- expired media URLs ----------------------------------------------------------------------------------
  const lastRefetch = useRef(0);
  const reportMediaError = useCallback(() => {
    const now = Date.now();
    if (sendingRef.current || now - lastRefetch.current < EXPIRED_MEDIA_REFETCH_MS) return;
    lastRefetch.current = now;
    // The same media with a fresh address must replace the dead one, whatever its timestamp.
    forceSync.current = true;
    void refetch();
  }, [refetch]);

  return {
    messages,
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
    craft,
  };
}

const EMPTY: ChatMessage[] = [];
