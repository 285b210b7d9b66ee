// A conversation beside its scene canvas, used by the story interface and the main chat. Text first: on a
// desktop the chat (header, messages, input) has at least half the width and the canvas on its right can be
// resized with the handle between them or folded to a rail (both remembered); on a phone the canvas sits above
// the chat, a quarter of the screen at most, and folds to a slim strip (remembered), and while it is open the
// scene it shows is not repeated in the log. Both the canvas and the pictures in the chat open the large preview.
import type { ChatMessage, ChatMode } from "@storyverse/contract/chat";
import type { GalleryItem } from "@storyverse/contract/media";
import { RotateCw, TriangleAlert } from "lucide-react";
import { type CSSProperties, type ReactNode, useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "../../../components/button";
import { Lightbox, type LightboxItem } from "../../../components/lightbox";
import { type CanvasPreview, MediaCanvas } from "../../../components/media-canvas";
import { DOCKED_PANEL_WIDTH } from "../../../components/modal";
import { translateServerMessage } from "../../../i18n/server-messages";
import { errorMessage } from "../../../lib/api-errors";
import { readDraft } from "../../credits/story-return";
import { useClipsEnabled } from "../../media-clip/clip-api";
import { ClipDialog } from "../../media-clip/clip-dialog";
import { useEditKinds } from "../../picture-edit/edit-api";
import { type EditTarget, PictureEditDialog } from "../../picture-edit/picture-edit-dialog";
import { useServerConfig } from "../api/server-config";
import { hasMedia } from "../canvas-media";
import { useChatMode, useSceneCollapsed, useScenePicturesBoth, useSceneWidth } from "../use-chat-preferences";
import type { ChatSession } from "../use-chat-session";
import { voiceInputSupported } from "../use-voice-recorder";
import { ChatInput, type InputModeControl } from "./chat-input";
import { type MessageCraft, MessageList, type MessageSelection } from "./message-list";
import { SceneResizer } from "./scene-resizer";

export interface ReferenceSelection extends MessageSelection {
  count: number;
  clear: () => void;
}

interface ChatExperienceProps {
  session: ChatSession;
  header: ReactNode;
  /** Pictures can be chosen as references (story chats). */
  selection?: ReferenceSelection | null;
  /** Names the saved files, e.g. after the story. */
  downloadPrefix?: string;
  /** Story chats: "Make a card" on narrator messages. */
  onMakeCard?: (messageId: string) => void;
  /** Story chats: "Read aloud" on narrator messages. */
  narration?: (message: ChatMessage) => ReactNode;
  /** Story chats: a marker above a narrator message (its checkpoint). */
  marker?: (message: ChatMessage) => ReactNode;
  /** Story chats: more actions on a narrator message (branches and checkpoints). */
  moreActions?: (message: ChatMessage) => ReactNode;
  /** Story chats: Do / Say / Story on the composer. */
  inputMode?: InputModeControl | null;
  /** A docked side panel is open: on a desktop it takes the scene's place, so it never covers the story. */
  sidePanelOpen?: boolean;
  /** Story chats: the story whose unsent words the composer keeps (story-return.ts). */
  draftKey?: string | null;
  /** The composer's mode and unsent words, as they change ("What the narrator sees" follows them). */
  onComposerChange?: (composer: ComposerState) => void;
  /** Story chats: a bar above the composer (a group scene's speaker, decision 0164). */
  aboveComposer?: ReactNode;
}

export interface ComposerState {
  mode: ChatMode;
  draft: string;
}

interface Preview {
  items: LightboxItem[];
  index: number;
}

/** The preview's descriptions of a scene, in the interface's language. */
interface SceneDescriptions {
  image: string;
  video: string;
}

function previewItem(message: ChatMessage, name: string, described: SceneDescriptions): LightboxItem | null {
  if (message.video_url) {
    return {
      url: message.video_url,
      type: "video",
      description: described.video,
      downloadName: `${name}.mp4`,
    };
  }
  if (message.image_url) {
    return {
      url: message.image_url,
      type: "image",
      description: described.image,
      downloadName: `${name}.png`,
    };
  }
  return null;
}

function safeFileName(text: string): string {
  return (
    text
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 40) || "storyverse"
  );
}

export function ChatExperience({
  session,
  header,
  selection,
  downloadPrefix = "storyverse",
  onMakeCard,
  narration,
  marker,
  moreActions,
  inputMode,
  sidePanelOpen = false,
  draftKey = null,
  onComposerChange,
  aboveComposer = null,
}: ChatExperienceProps) {
  const { t } = useTranslation("conversation");
  const [mode, setMode] = useChatMode();
  const [sceneCollapsed, setSceneCollapsed] = useSceneCollapsed();
  const [picturesBoth, setPicturesBoth] = useScenePicturesBoth();
  const [draft, setDraft] = useState(() => (draftKey ? readDraft(draftKey) : ""));
  const composerSeen = useRef(onComposerChange);
  composerSeen.current = onComposerChange;
  useEffect(() => {
    composerSeen.current?.({ mode, draft });
  }, [mode, draft]);
  const sceneWidth = useSceneWidth();
  const config = useServerConfig();
  const voiceEnabled = Boolean(config.data?.capabilities.includes("transcription")) && voiceInputSupported();
  const [preview, setPreview] = useState<Preview | null>(null);
  // Edit in the preview opens the picture editor on that picture (decision 0148); the edit is a new gallery item,
  // which a story's turn can show in its picture's place (decision 0163).
  const [editing, setEditing] = useState<{ url: string; messageId: string | null } | null>(null);
  const canEdit = useEditKinds().length > 0;
  // "Extend this clip" in the preview of a clip (decision 0160): the longer clip is a new gallery item that the
  // server puts in the turn's place as it completes; the conversation is then read again to show it.
  const [extendUrl, setExtendUrl] = useState<string | null>(null);
  const canClip = useClipsEnabled();

  const mediaMessages = useMemo(() => session.messages.filter(hasMedia), [session.messages]);
  const prefix = safeFileName(downloadPrefix);
  const imageDescription = t("media.imageLabel");
  const videoDescription = t("media.videoLabel");
  const items = useMemo(
    () =>
      mediaMessages.flatMap((message, n) => {
        const item = previewItem(message, `${prefix}-scene-${n + 1}`, {
          image: imageDescription,
          video: videoDescription,
        });
        return item ? [item] : [];
      }),
    [mediaMessages, prefix, imageDescription, videoDescription],
  );

  // Handed to every message row: the same function while a turn streams, so the rows need not render again.
  const previewState = useRef({ mediaMessages, items });
  previewState.current = { mediaMessages, items };
  const openMessage = useCallback((messageId: string) => {
    const { mediaMessages, items } = previewState.current;
    const index = mediaMessages.findIndex((m) => m.id === messageId);
    if (index >= 0) setPreview({ items, index });
  }, []);

  const openCanvas = ({ url, type }: CanvasPreview) => {
    const index = items.findIndex((item) => item.url === url);
    if (index >= 0) setPreview({ items, index });
    // Media the conversation no longer lists under that address (a remembered canvas, a fallback image).
    else
      setPreview({
        items: [{ url, type, description: type === "video" ? videoDescription : imageDescription }],
        index: 0,
      });
  };

  // The canvas says at once that a new scene is coming: from the send of an image or video turn, then while
  // the newest scene is painted. Only the narrator's writing holds the composer, never a scene.
  const pendingMessage = session.messages.findLast(
    (m) => m.media_status === "pending" && !session.pollingStopped.has(m.id),
  );
  const generating =
    session.sceneComing ?? (pendingMessage ? (pendingMessage.mode === "video" ? "video" : "image") : null);
  const busy = session.sending;
  // The message whose scene the open canvas shows: its picture is not shown again in the log (on a desktop
  // too, unless the player wants both, or a side panel has the canvas's place).
  const canvas = session.canvas;
  const sceneOnCanvas =
    canvas && !sceneCollapsed
      ? (session.messages.findLast(
          (m) =>
            (canvas.video !== null && m.video_url === canvas.video) ||
            (canvas.image !== null && m.image_url === canvas.image),
        )?.id ?? null)
      : null;
  const actions = session.craft;
  const turnOfEdit = editing?.messageId ?? null;
  const editTarget: EditTarget | null = editing
    ? {
        url: editing.url,
        ...(actions && turnOfEdit
          ? { showInTurn: (item: GalleryItem) => actions.showMedia(turnOfEdit, item.id) }
          : {}),
      }
    : null;
  const craft = useMemo<MessageCraft | null>(
    () =>
      actions
        ? {
            busy,
            onRetry: (messageId, what) => void actions.retry(messageId, what),
            onUndo: () => void actions.undo(),
            onRedo: actions.redoable > 0 ? () => void actions.redo() : null,
            onContinue: () => void actions.continueStory(),
            onEdit: actions.edit,
            onSelectVersion: (messageId, version) => void actions.selectVersion(messageId, version),
            ...(onMakeCard ? { onMakeCard } : {}),
            ...(narration ? { narration } : {}),
            ...(marker ? { marker } : {}),
            ...(moreActions ? { moreActions } : {}),
          }
        : null,
    [actions, busy, onMakeCard, narration, marker, moreActions],
  );

  return (
    <div
      className="flex h-[calc(100dvh-65px)] flex-col lg:flex-row"
      style={{ "--scene-width": `${sceneWidth.width}%` } as CSSProperties}
    >
      <MediaCanvas
        media={session.canvas}
        onOpen={openCanvas}
        onMediaError={session.reportMediaError}
        generating={generating}
        fold={{ collapsed: sceneCollapsed, onToggle: setSceneCollapsed }}
        alsoInStory={{ on: picturesBoth, onToggle: setPicturesBoth }}
        className={`shrink-0 border-b border-line lg:order-3 lg:h-full lg:border-b-0 ${
          !session.canvas ? "h-16 lg:h-24" : sceneCollapsed ? "h-14" : "h-[14dvh] min-h-24"
        } ${sceneCollapsed ? "lg:w-20 lg:border-s lg:border-line" : "lg:w-[var(--scene-width)]"} lg:min-h-0 ${
          sidePanelOpen ? "lg:hidden" : ""
        }`}
      />
      {sidePanelOpen ? (
        <div aria-hidden="true" className={`hidden shrink-0 lg:order-3 lg:block ${DOCKED_PANEL_WIDTH}`} />
      ) : sceneCollapsed ? null : (
        <SceneResizer
          sceneWidth={sceneWidth.width}
          onPreview={sceneWidth.preview}
          onChoose={sceneWidth.choose}
          className="hidden lg:order-2 lg:block"
        />
      )}
      <section
        aria-label={t("chatExperience.chatLabel")}
        className="flex min-h-0 flex-1 flex-col bg-canvas lg:order-1 lg:min-w-0"
      >
        {header}
        {session.error && session.messages.length === 0 ? (
          <LoadError error={session.error} onRetry={session.retry} />
        ) : session.isLoading ? (
          <ConversationSkeleton />
        ) : (
          <MessageList
            messages={session.messages}
            paging={session.paging}
            craft={craft}
            pollingStopped={session.pollingStopped}
            sending={session.sending && !session.writing ? (mode === "chat" ? "chat" : "media") : null}
            selection={selection}
            onPreview={openMessage}
            onMediaError={session.reportMediaError}
            sceneOnCanvas={sceneOnCanvas}
            canvasOnDesktop={!sidePanelOpen && !picturesBoth}
          />
        )}
        {aboveComposer}
        <ChatInput
          // A story's composer keeps its unsent words per story (a new story: a new box with its own).
          key={draftKey ?? "main-chat"}
          draftKey={draftKey}
          mode={mode}
          onModeChange={setMode}
          onSend={session.send}
          onStop={session.writing ? session.stop : null}
          busy={busy}
          voiceEnabled={voiceEnabled}
          references={selection ? { count: selection.count, onClear: selection.clear } : null}
          inputMode={inputMode}
          onTextChange={setDraft}
        />
      </section>
      {preview ? (
        <Lightbox
          items={preview.items}
          index={preview.index}
          onIndexChange={(index) => setPreview((p) => (p ? { ...p, index } : p))}
          onClose={() => setPreview(null)}
          onEdit={
            canEdit
              ? (index) => {
                  const item = preview.items[index];
                  if (!item) return;
                  setPreview(null);
                  const message = mediaMessages.find((m) => m.image_url === item.url);
                  setEditing({ url: item.url, messageId: message?.id ?? null });
                }
              : undefined
          }
          onExtend={
            canClip
              ? (index) => {
                  const item = preview.items[index];
                  if (!item) return;
                  setPreview(null);
                  setExtendUrl(item.url);
                }
              : undefined
          }
        />
      ) : null}
      <PictureEditDialog target={editTarget} onClose={() => setEditing(null)} />
      <ClipDialog
        target={extendUrl ? { kind: "extend", url: extendUrl } : null}
        onClose={() => setExtendUrl(null)}
        onFinished={session.reloadMedia}
      />
    </div>
  );
}

function ConversationSkeleton() {
  const { t } = useTranslation("conversation");
  return (
    <div
      role="status"
      aria-label={t("chatExperience.loadingMessages")}
      className="flex-1 space-y-5 overflow-hidden px-5 py-6"
    >
      {[0, 1, 2].map((n) => (
        <div key={n} className="space-y-3">
          <div className="ms-auto h-10 w-2/3 rounded-2xl bg-surface-2 motion-safe:animate-pulse" />
          <div className="flex gap-3">
            <div className="size-8 shrink-0 rounded-xl bg-surface-2 motion-safe:animate-pulse" />
            <div className="h-24 flex-1 rounded-2xl bg-surface-2 motion-safe:animate-pulse" />
          </div>
        </div>
      ))}
    </div>
  );
}

function LoadError({ error, onRetry }: { error: Error; onRetry: () => void }) {
  const { t } = useTranslation("conversation");
  return (
    <div role="alert" className="flex flex-1 flex-col items-center justify-center px-6 text-center">
      <TriangleAlert aria-hidden="true" className="size-8 text-danger" />
      <p className="mt-3 font-semibold text-ink">
        {t("chatExperience.loadFailed", { error: translateServerMessage(errorMessage(error)) })}
      </p>
      <Button onClick={onRetry} variant="secondary" size="sm" className="mt-5">
        <RotateCw aria-hidden="true" className="size-4" /> {t("chatExperience.tryAgain")}
      </Button>
    </div>
  );
}
