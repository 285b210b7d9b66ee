// The Studio conversation: what the server
// recorded (GET /api/studio/messages) plus what only this browser knows, an exchange still running or one
// that failed. The whole list is kept in local storage under `studio_messages` (cleared at logout), so the
// Studio shows at once on return while the server's copy, with freshly signed URLs, loads behind it.
import type { AspectRatio } from "@storyverse/contract/generation-settings";
import type { GalleryItem } from "@storyverse/contract/media";
import { type StudioMessage, studioMessageSchema } from "@storyverse/contract/studio";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { translateServerMessage } from "../../i18n/server-messages";
import { ApiError, errorMessage } from "../../lib/api-errors";
import { readStorage, writeStorage } from "../../lib/storage";
import { refreshCreditBalance } from "../../shared/credits/credit-balance";
import { isOutOfCreditsError, type Shortfall, shortfallOf } from "../../shared/credits/out-of-credits";
import { GALLERY_KEY } from "../../shared/gallery/gallery-page";
import { USER_IMAGES_KEY } from "../../shared/gallery/user-images";
import { onStudioEvent } from "../../shared/live/live-events";
import { askAdvisor } from "./api/advisor-chat";
import { fetchStudioBatch, queueImages } from "./api/queue-batch";
import { STUDIO_MESSAGES_KEY, studioMessagesQueryOptions } from "./api/studio-messages";
import { awaitBatch } from "./await-batch";
import {
  generationFailedMessage,
  INVALID_GENERATION_RESPONSE,
  invalidGenerationResponseMessage,
  type StudioInput,
  toRequestInput,
} from "./studio-rules";

export interface StudioChatMessage extends StudioMessage {
  /** The answer is on its way. */
  isLoading?: boolean;
  /** The words shown in place of an answer that failed. */
  error?: string;
  /** Known to this browser only: an exchange still running, or one that failed (the server keeps neither). */
  localOnly?: boolean;
  /** The shape asked for, while the pictures are on their way (their placeholders take it). */
  shape?: AspectRatio;
}

export interface StudioRequest {
  mode: "chat" | "image";
  prompt: string;
  batchSize: number;
  inputs: StudioInput[];
  /** The pictures' shape (decision 0149). */
  shape?: AspectRatio;
  /** The first picture's seed; null or absent: a new one. */
  seed?: number | null;
}

/** How a send ended, for the composer: sent (clear it), refused for credits (keep it), or failed. */
export type SendOutcome = "sent" | "quota" | "failed";

const STORED_MESSAGES_MAX = 200;

function isStudioChatMessage(value: unknown): value is StudioChatMessage {
  return studioMessageSchema.safeParse(value).success;
}

/** The stored conversation: valid messages only; one left loading by a closed tab is dropped. */
export function readStoredMessages(): StudioChatMessage[] {
  const stored = readStorage("studio_messages") ?? [];
  return stored.filter(isStudioChatMessage).filter((message) => !message.isLoading);
}

/** What is worth storing: no unfinished answers, and no uploaded pictures (megabytes of data: URLs). */
export function toStoredMessages(messages: StudioChatMessage[]): StudioChatMessage[] {
  return messages
    .filter((message) => !message.isLoading)
    .slice(-STORED_MESSAGES_MAX)
    .map((message) => ({
      ...message,
      input_images: message.input_images.filter((url) => !url.startsWith("data:")),
    }));
}

function byTime(a: StudioChatMessage, b: StudioChatMessage): number {
  return a.timestamp.localeCompare(b.timestamp);
}

let localId = 0;
const nextLocalId = (kind: string) => `local-${kind}-${Date.now().toString(36)}-${++localId}`;

/**
 * The answer's words as the server records them (English, batch-job.ts's batchSummary): kept so, like the
 * server's copy; the message list shows them in the interface's language (batchSummaryText).
 */
function batchSummary(made: number): string {
  return made === 1 ? "Here is your image." : `Here are your ${made} images.`;
}

export function useStudioConversation(options: {
  onError: (text: string) => void;
  onQuota: (shortfall: Shortfall | null) => void;
}) {
  const queryClient = useQueryClient();
  const { onError, onQuota } = options;
  const [initial] = useState(readStoredMessages);
  const server = useQuery({
    ...studioMessagesQueryOptions(),
    placeholderData: initial.filter((message) => !message.localOnly),
  });
  const [local, setLocal] = useState<StudioChatMessage[]>(() =>
    initial.filter((message) => message.localOnly),
  );
  const [sending, setSending] = useState(false);
  const sendingRef = useRef(false);
  /** The request behind each failed answer still in memory, so it can be tried again. */
  const retries = useRef(new Map<string, StudioRequest>());

  /** The server's ids of exchanges this tab queued and shows itself meanwhile (so a refetch does not double them). */
  const [shadowed, setShadowed] = useState<ReadonlySet<string>>(() => new Set());
  const shadow = useCallback(
    (ids: string[], on: boolean) =>
      setShadowed((old) => {
        const next = new Set(old);
        for (const id of ids) on ? next.add(id) : next.delete(id);
        return next;
      }),
    [],
  );
  const messages = useMemo<StudioChatMessage[]>(
    () =>
      [
        // A batch queued earlier (before a reload) shows as on its way until it ends.
        ...(server.data ?? [])
          .filter((m) => !shadowed.has(m.id))
          .map((m) => (m.status === "pending" ? { ...m, isLoading: true } : m)),
        ...local,
      ].sort(byTime),
    [server.data, local, shadowed],
  );

  // Such a batch ended: read the conversation again. (A batch this tab is waiting for is settled by send.)
  useEffect(
    () =>
      onStudioEvent((event) => {
        const listed = queryClient.getQueryData<StudioMessage[]>(STUDIO_MESSAGES_KEY);
        if (listed?.some((m) => m.id === event.message_id && m.status === "pending")) {
          void queryClient.invalidateQueries({ queryKey: STUDIO_MESSAGES_KEY });
        }
      }),
    [queryClient],
  );

  useEffect(() => {
    if (server.isPlaceholderData && messages.length === 0) return;
    writeStorage("studio_messages", toStoredMessages(messages));
  }, [messages, server.isPlaceholderData]);

  /** Records a finished exchange in the server's copy, where it now lives. */
  const commit = useCallback(
    async (pending: string[], exchange: StudioChatMessage[]) => {
      // A history fetch still under way would land on top of this exchange: stop it, and fetch again after
      // (the server has recorded the exchange by now).
      const wasFetching = queryClient.isFetching({ queryKey: STUDIO_MESSAGES_KEY }) > 0;
      if (wasFetching) await queryClient.cancelQueries({ queryKey: STUDIO_MESSAGES_KEY });
      const ids = new Set(exchange.map((message) => message.id));
      queryClient.setQueryData<StudioMessage[]>(STUDIO_MESSAGES_KEY, (old) => [
        ...(old ?? server.data ?? []).filter((message) => !ids.has(message.id)),
        ...exchange,
      ]);
      setLocal((prev) => prev.filter((message) => !pending.includes(message.id)));
      if (wasFetching) void queryClient.invalidateQueries({ queryKey: STUDIO_MESSAGES_KEY });
    },
    [queryClient, server.data],
  );

  const send = useCallback(
    async (request: StudioRequest, retryOf?: string): Promise<SendOutcome> => {
      if (sendingRef.current) return "failed";
      sendingRef.current = true;
      setSending(true);
      const isAdvisor = request.mode === "chat";
      const batchSize = isAdvisor ? 1 : request.batchSize;
      const now = Date.now();
      const user: StudioChatMessage = {
        id: nextLocalId("user"),
        role: "user",
        content: request.prompt,
        images: [],
        image_items: [],
        input_images: isAdvisor ? [] : request.inputs.map((input) => input.preview),
        isAdvisor,
        batchSize,
        timestamp: new Date(now).toISOString(),
        localOnly: true,
      };
      const answer: StudioChatMessage = {
        id: nextLocalId("answer"),
        role: "assistant",
        content: "",
        images: [],
        image_items: [],
        input_images: [],
        isAdvisor,
        batchSize,
        timestamp: new Date(now + 1).toISOString(),
        isLoading: true,
        localOnly: true,
        ...(!isAdvisor && request.shape ? { shape: request.shape } : {}),
      };
      retries.current.set(answer.id, request);
      setLocal((prev) => [
        ...prev.filter((message) => !retryOf || !isExchangeOf(prev, retryOf, message)),
        user,
        answer,
      ]);
      if (retryOf) retries.current.delete(retryOf);
      const pending = [user.id, answer.id];

      try {
        if (isAdvisor) {
          const response = await askAdvisor({ prompt: request.prompt });
          void refreshCreditBalance(queryClient, response.quota_info);
          await commit(pending, [
            { ...user, localOnly: undefined },
            {
              ...answer,
              id: response.message_id,
              content: response.response,
              isLoading: undefined,
              localOnly: undefined,
            },
          ]);
        } else {
          // Queued: charged now, the answer stays pending until the batch's event (or a look) says it ended.
          const queued = await queueImages({
            prompt: request.prompt,
            batch_size: batchSize,
            input_images: request.inputs.map(toRequestInput),
            ...(request.shape ? { aspect_ratio: request.shape } : {}),
            ...(request.seed != null ? { seed: request.seed } : {}),
          });
          const quota = queued.kind === "queued" ? queued.accepted.quota_info : queued.quota;
          void refreshCreditBalance(queryClient, quota);
          const serverIds =
            queued.kind === "queued" ? [queued.accepted.prompt_message_id, queued.accepted.message_id] : [];
          shadow(serverIds, true);
          const batch =
            queued.kind === "queued"
              ? await awaitBatch(queued.accepted.message_id, (signal) =>
                  fetchStudioBatch(queued.accepted.message_id, signal),
                )
              : queued.batch;
          if (batch.status === "failed") {
            // Refunded by the server; the balance catches up (by event, or read again here).
            void refreshCreditBalance(queryClient);
            throw new ApiError(502, batch.error ?? INVALID_GENERATION_RESPONSE);
          }
          if (batch.images.length === 0) throw new Error(INVALID_GENERATION_RESPONSE);
          if (batch.images.length < batchSize) void refreshCreditBalance(queryClient);
          const items: GalleryItem[] = batch.items;
          await commit(pending, [
            { ...user, id: serverIds[0] ?? user.id, localOnly: undefined },
            {
              ...answer,
              id: batch.message_id,
              content: batchSummary(batch.images.length),
              images: batch.images,
              image_items: items,
              isLoading: undefined,
              localOnly: undefined,
              shape: undefined,
            },
          ]);
          shadow(serverIds, false);
          void queryClient.invalidateQueries({ queryKey: GALLERY_KEY });
          void queryClient.invalidateQueries({ queryKey: USER_IMAGES_KEY });
        }
        retries.current.delete(answer.id);
        return "sent";
      } catch (error) {
        if (isOutOfCreditsError(error)) {
          // Like the story chat: the refused message goes, and the prompt stays in the composer.
          setLocal((prev) => prev.filter((message) => !pending.includes(message.id)));
          retries.current.delete(answer.id);
          void refreshCreditBalance(queryClient);
          onQuota(shortfallOf(error));
          return "quota";
        }
        const said =
          error instanceof Error && error.message === INVALID_GENERATION_RESPONSE
            ? INVALID_GENERATION_RESPONSE
            : errorMessage(error);
        // The server's words (or the client's own) in the interface's language.
        const detail =
          said === INVALID_GENERATION_RESPONSE
            ? invalidGenerationResponseMessage()
            : translateServerMessage(said);
        const text = isAdvisor ? detail : generationFailedMessage(detail);
        setLocal((prev) =>
          prev.map((message) =>
            message.id === answer.id
              ? { ...message, isLoading: undefined, error: text, content: text }
              : message,
          ),
        );
        onError(text);
        return "failed";
      } finally {
        sendingRef.current = false;
        setSending(false);
      }
    },
    [commit, onError, onQuota, queryClient, shadow],
  );

  const retry = useCallback(
    (answerId: string) => {
      const request = retries.current.get(answerId);
      if (!request) return Promise.resolve<SendOutcome>("failed");
      return send(request, answerId);
    },
    [send],
  );

  const canRetry = useCallback((answerId: string) => retries.current.has(answerId), []);

  /** Forgets a failed exchange (its user message and the failed answer). */
  const dismissFailure = useCallback((answerId: string) => {
    retries.current.delete(answerId);
    setLocal((prev) => prev.filter((message) => !isExchangeOf(prev, answerId, message)));
  }, []);

  return {
    messages,
    sending,
    /** The server's copy has not answered yet and nothing is stored: show a loading state, not the empty one. */
    isLoadingHistory:
      server.isPending || (server.isPlaceholderData && messages.length === 0 && server.isFetching),
    historyError: server.isError ? errorMessage(server.error) : null,
    send,
    retry,
    canRetry,
    dismissFailure,
  };
}

/** The failed answer with this id, and the user message just before it. */
function isExchangeOf(messages: StudioChatMessage[], answerId: string, message: StudioChatMessage): boolean {
  if (message.id === answerId) return true;
  const index = messages.findIndex((m) => m.id === answerId);
  return index > 0 && messages[index - 1] === message && message.role === "user" && !!message.localOnly;
}
