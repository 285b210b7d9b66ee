// The main chat (view "chat"): the never-ending main story over /api/chat, with its canvas.
// It has no settings and no references; its canvas follows the newest media of the conversation.
import { useQueryClient } from "@tanstack/react-query";
import { Infinity as InfinityIcon } from "lucide-react";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { sendChatMessage } from "../../../shared/conversation/api/send-chat-message";
import type { ChatBackend } from "../../../shared/conversation/chat-backend";
import { ChatExperience } from "../../../shared/conversation/components/chat-experience";
import { OfflineBadge } from "../../../shared/conversation/components/offline-badge";
import { type PageReader, readNewestPage } from "../../../shared/conversation/message-pages";
import { useChatSession } from "../../../shared/conversation/use-chat-session";
import { CHAT_HISTORY_KEY, fetchChatPage } from "../api/chat-history";
import { fetchChatMediaStatus } from "../api/chat-media-status";

/** The main chat's pages (decision 0138): it opens on the newest page and reads older ones as the player scrolls up. */
const pages: PageReader = (position, signal) => fetchChatPage(position, signal);

export function MainChat() {
  const { t } = useTranslation("conversation");
  const queryClient = useQueryClient();
  const backend = useMemo<ChatBackend>(
    () => ({
      queryKey: CHAT_HISTORY_KEY,
      fetchMessages: (signal) => readNewestPage(queryClient, CHAT_HISTORY_KEY, pages, signal),
      pages,
      send: sendChatMessage,
      mediaStatus: fetchChatMediaStatus,
      // Read afresh each time the view opens: signed media URLs expire after an hour.
      refreshOnOpen: true,
    }),
    [queryClient],
  );
  const session = useChatSession(backend);

  const header = (
    <div className="flex items-center gap-3 border-b border-line px-4 py-3 sm:px-5">
      <span
        aria-hidden="true"
        className="bg-primary-gradient grid size-9 shrink-0 place-items-center rounded-xl text-white"
      >
        <InfinityIcon className="size-5" />
      </span>
      <div className="min-w-0 flex-1">
        <div className="flex items-center gap-2">
          <h1 className="truncate text-lg font-semibold text-ink">{t("mainChat.title")}</h1>
          <OfflineBadge compact className="shrink-0" />
        </div>
        <p className="truncate text-sm text-ink-muted">{t("mainChat.subtitle")}</p>
      </div>
    </div>
  );

  return <ChatExperience session={session} header={header} downloadPrefix="main-story" />;
}
