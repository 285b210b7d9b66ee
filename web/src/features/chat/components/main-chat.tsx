// The main chat (view "chat"): the never-ending main story over /api/chat, with its canvas.
// It has no settings and no references; its canvas follows the newest media of the conversation.
import { Infinity as InfinityIcon } from "lucide-react";
import { useMemo } from "react";
import { sendChatMessage } from "../../../shared/conversation/api/send-chat-message";
import type { ChatBackend } from "../../../shared/conversation/chat-backend";
import { ChatExperience } from "../../../shared/conversation/components/chat-experience";
import { OfflineBadge } from "../../../shared/conversation/components/offline-badge";
import { useChatSession } from "../../../shared/conversation/use-chat-session";
import { CHAT_HISTORY_KEY, fetchChatHistory } from "../api/chat-history";
import { fetchChatMediaStatus } from "../api/chat-media-status";

export function MainChat() {
  const backend = useMemo<ChatBackend>(
    () => ({
      queryKey: CHAT_HISTORY_KEY,
      fetchMessages: fetchChatHistory,
      send: sendChatMessage,
      mediaStatus: fetchChatMediaStatus,
      // Read afresh each time the view opens: signed media URLs expire after an hour.
      refreshOnOpen: true,
    }),
    [],
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
          <h1 className="truncate text-lg font-semibold text-ink">Main Story</h1>
          <OfflineBadge compact className="shrink-0" />
        </div>
        <p className="truncate text-sm text-ink-muted">Your never-ending adventure, one scene at a time</p>
      </div>
    </div>
  );

  return <ChatExperience session={session} header={header} downloadPrefix="main-story" />;
}
