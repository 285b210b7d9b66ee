// The story interface: the open story (read by the id in its address) with its chat beside its canvas. The header shows the title and
// context with the settings and close buttons; closing forgets the open story and its messages and
// returns to the list. The canvas starts from the story's remembered media state and is kept in step
// with the conversation, which is remembered again for the next switch back to this story. Story Settings
// (Memory, Author's Note, the summary), Story Cards and "What the narrator sees" open in one side panel beside
// the story, not over it: one at a time (opening another replaces it), while the story stays usable. Narrator
// messages can be read aloud, and with the story's "Read new turns aloud" each finished turn is. The header
// names the branch the story shows (branch-switcher.tsx); a narrator message's More actions branch from it or
// name it as a checkpoint (branch-message-menu.tsx).
import type { ChatMessage } from "@storyverse/contract/chat";
import { formatPlayerInput, type InputMode } from "@storyverse/contract/generation-settings";
import type { Story } from "@storyverse/contract/stories";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { ArrowLeft, BookOpenText, SearchX, Settings2, TriangleAlert, X } from "lucide-react";
import { type ComponentType, useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "../../../components/button";
import { iconButtonClasses } from "../../../components/button-classes";
import { ViewLoading } from "../../../components/view-loading";
import { translateServerMessage } from "../../../i18n/server-messages";
import { ApiError, errorMessage } from "../../../lib/api-errors";
import { useAuth } from "../../../shared/auth";
import { useBanner } from "../../../shared/banner-provider";
import type { ChatBackend } from "../../../shared/conversation/chat-backend";
import {
  ChatExperience,
  type ComposerState,
  type ReferenceSelection,
} from "../../../shared/conversation/components/chat-experience";
import { OfflineBadge } from "../../../shared/conversation/components/offline-badge";
import { type PageReader, readNewestPage } from "../../../shared/conversation/message-pages";
import { useChatSession } from "../../../shared/conversation/use-chat-session";
import { SpeakerPortraitsProvider } from "../../../shared/speaker/speaker-portraits";
import { useView } from "../../../shared/view-provider";
import { NarrationControl } from "../../../shared/voice/components/narration-control";
import { useReadNewTurnsAloud } from "../../../shared/voice/use-read-new-turns-aloud";
import { draftCardFromMessage } from "../api/card-draft";
import { continueStory } from "../api/continue-story";
import { editStoryMessage } from "../api/edit-story-message";
import { generationSettingsQueryOptions } from "../api/generation-settings";
import { refreshStoryList, STORIES_KEY, updateListedStories } from "../api/list-stories";
import { fetchRedoableCount, redoStoryTurn } from "../api/redo-story-turn";
import { retryStoryMessage } from "../api/retry-story-message";
import { selectMessageVersion } from "../api/select-message-version";
import { sendStoryMessage } from "../api/send-story-message";
import { showTurnMedia } from "../api/show-turn-media";
import { storyCardsQueryOptions } from "../api/story-cards";
import { fetchStoryMediaStatus } from "../api/story-media-status";
import { fetchStoryPage, storyMessagesKey } from "../api/story-messages";
import { undoStoryTurn } from "../api/undo-story-turn";
import { branchViewKey } from "../branch-view";
import { readStoryMediaState, saveStoryMediaState } from "../media-states";
import { forgetOpenStory, openStoryQueryOptions, StoryNotFoundError } from "../open-story-query";
import { refreshSelection, type SelectedStoryImage, toggleSelection } from "../selection";
import { useStoryTabTitle } from "../use-story-tab-title";
import { BranchHost } from "./branch-host";
import { BranchMessageMenu, CheckpointMarker, useCheckpointNames } from "./branch-message-menu";
import { BranchSwitcher } from "./branch-switcher";
import { CameraPanel } from "./camera-panel";
import { CreatorNotes } from "./creator-notes";
import { chosenSpeaker, GroupSpeakerBar, groupSpeakers } from "./group-speaker-bar";
import { ImportNotesNotice } from "./import-notes";
import { LoreDraftsPanel } from "./lore-drafts-panel";
import { LoreNotice } from "./lore-notice";
import { NarratorContextPanel } from "./narrator-context-panel";
import { type CardEditorStart, StoryCardsDialog } from "./story-cards-dialog";
import { StorySettingsDialog } from "./story-settings-dialog";
import { type StoryTool, StoryToolButtons, StoryToolsMenu } from "./story-tools-menu";

/** A narrator message's turn number among the loaded messages: 1 for the first of them. */
const turnOf = (messages: readonly ChatMessage[], messageId: string) => {
  const index = messages.findIndex((m) => m.id === messageId);
  return messages.slice(0, index + 1).filter((m) => m.role === "assistant").length;
};

/** The "Share & export" dialog for the open story (null: closed), handed in by the app layer, which composes it. */
export type StoryShareDialog = ComponentType<{ story: Story | null; onClose: () => void }>;

export function StoryInterface({ ShareDialog }: { ShareDialog: StoryShareDialog }) {
  const { user } = useAuth();
  const { storyId } = useView();
  if (!storyId || !user) return <NoStoryOpen />;
  return <StoryById key={storyId} storyId={storyId} ShareDialog={ShareDialog} />;
}

/**
 * The story the address names, read through its query (open-story-query.ts): shown at once when the list
 * opened it; opened the way the list opens one when reached by its address (a reload, a bookmark, a link,
 * back or forward): session, messages, canvas; then it shows.
 */
function StoryById({ storyId, ShareDialog }: { storyId: string; ShareDialog: StoryShareDialog }) {
  const { t } = useTranslation("stories");
  const queryClient = useQueryClient();
  const open = useQuery(openStoryQueryOptions(queryClient, storyId));
  const story = open.data;
  if (story) {
    // Each branch is a conversation of its own: the chat starts afresh when the story shows another.
    return (
      <BranchHost story={story}>
        <OpenStoryChat key={branchViewKey(story)} story={story} ShareDialog={ShareDialog} />
      </BranchHost>
    );
  }
  const { error } = open;
  // An ended session is handled by the shell (it signs out with its own message).
  if (!error || (error instanceof ApiError && error.status === 401)) return <ViewLoading inShell />;
  if (error instanceof StoryNotFoundError) {
    return (
      <NoStoryOpen
        icon={SearchX}
        title={t("storyInterface.notFoundTitle")}
        text={t("storyInterface.notFoundText")}
      />
    );
  }
  return (
    <NoStoryOpen
      icon={TriangleAlert}
      title={t("openStory.failed", { message: translateServerMessage(errorMessage(error)) })}
    />
  );
}

function NoStoryOpen({
  icon: Icon = BookOpenText,
  title,
  text,
}: {
  icon?: typeof BookOpenText;
  title?: string;
  /** Under the title; by default, to pick a story from the list. */
  text?: string;
}) {
  const { t } = useTranslation("stories");
  const { navigate } = useView();
  return (
    <div className="grid min-h-[calc(100dvh-65px)] place-items-center px-6 text-center">
      <div>
        <span className="mx-auto grid size-14 place-items-center rounded-2xl bg-accent-soft text-accent-ink">
          <Icon aria-hidden="true" className="size-7" />
        </span>
        <h1 className="mt-5 text-xl font-semibold text-ink">{title ?? t("storyInterface.noStoryTitle")}</h1>
        <p className="mt-2 text-sm text-ink-muted">{text ?? t("storyInterface.noStoryText")}</p>
        <Button onClick={() => navigate("stories")} size="sm" className="mt-6">
          <ArrowLeft aria-hidden="true" className="size-4" /> {t("storyInterface.backToStories")}
        </Button>
      </div>
    </div>
  );
}

/** What the side panel shows: Story Cards (on its list, or on the editor, e.g. a draft from "Make a card"), Story
 * Settings, "What the narrator sees", "What the camera sees" or living lore's drafts. */
type SidePanel =
  | { panel: "cards"; start: CardEditorStart | null }
  | { panel: "settings" }
  | { panel: "context" }
  | { panel: "camera" }
  | { panel: "lore" };

function OpenStoryChat({ story, ShareDialog }: { story: Story; ShareDialog: StoryShareDialog }) {
  const { t } = useTranslation("stories");
  const queryClient = useQueryClient();
  useStoryTabTitle(story.title);
  const { navigate } = useView();
  const { showError } = useBanner();
  const [sharing, setSharing] = useState(false);
  const [panel, setPanel] = useState<SidePanel | null>(null);
  const closePanel = () => setPanel(null);
  const [drafting, setDrafting] = useState(false);
  // The composer's mode and unsent words: "What the narrator sees" previews the turn they would send.
  const [composer, setComposer] = useState<ComposerState | null>(null);
  const [selected, setSelected] = useState<SelectedStoryImage[]>([]);
  const selectedRef = useRef(selected);
  selectedRef.current = selected;
  // Do / Say / Story: the composer starts from the story's setting; the player's choice holds while it is open.
  const generation = useQuery(generationSettingsQueryOptions(story.id));
  // A character teller's messages show its card's portrait (decision 0154).
  const cards = useQuery(storyCardsQueryOptions(story.id));
  const portraitOf = useCallback(
    (cardId: string) => cards.data?.find((card) => card.id === cardId)?.portrait?.url ?? null,
    [cards.data],
  );
  const [chosenInput, setChosenInput] = useState<InputMode | null>(null);
  const inputMode = chosenInput ?? generation.data?.input_mode ?? "story";
  const inputModeRef = useRef(inputMode);
  inputModeRef.current = inputMode;
  // A group scene (decision 0164): who may speak, and the one the player chose to speak next (null: the order).
  const speakers = useMemo(() => groupSpeakers(generation.data, cards.data), [generation.data, cards.data]);
  const speakerOrder = generation.data?.speaker_order ?? "natural";
  const [chosenSpeakerId, setChosenSpeakerId] = useState<string | null>(null);
  const speakerRef = useRef<string | null>(null);
  speakerRef.current = chosenSpeaker(speakerOrder, speakers, chosenSpeakerId);

  const backend = useMemo<ChatBackend>(() => {
    const messagesKey = storyMessagesKey(story.id);
    const pages: PageReader = (position, signal) => fetchStoryPage(story.id, position, signal);
    const currentUrl = (messageId: string) =>
      queryClient.getQueryData<ChatMessage[]>(messagesKey)?.find((m) => m.id === messageId)?.image_url ??
      null;
    return {
      queryKey: messagesKey,
      fetchMessages: (signal) => readNewestPage(queryClient, messagesKey, pages, signal),
      pages,
      send: (prompt, mode, streaming) =>
        sendStoryMessage(
          {
            storyId: story.id,
            prompt,
            mode,
            inputMode: inputModeRef.current,
            selectedImages: refreshSelection(selectedRef.current, currentUrl),
            speakerId: speakerRef.current,
          },
          streaming,
        ),
      shownAs: (prompt) => formatPlayerInput(inputModeRef.current, prompt),
      mediaStatus: (messageId, signal) => fetchStoryMediaStatus(story.id, messageId, signal),
      onSent: () => refreshStoryList(queryClient),
      onMediaCompleted: (message) => {
        // The card shows the new scene and the new activity at once; the server's list follows.
        updateListedStories(queryClient, (stories) =>
          stories.map((s) =>
            s.id === story.id
              ? { ...s, thumbnail: message.image_url ?? s.thumbnail, last_updated: new Date().toISOString() }
              : s,
          ),
        );
        refreshStoryList(queryClient);
      },
      onCanvasChange: (canvas) => saveStoryMediaState(story.id, canvas),
      craft: {
        retry: (messageId, what, streaming) => {
          const mode = queryClient
            .getQueryData<ChatMessage[]>(messagesKey)
            ?.find((m) => m.id === messageId)?.mode;
          return retryStoryMessage(
            {
              storyId: story.id,
              messageId,
              what,
              // The answer's own mode; an image answer's retry takes the selected images too.
              mode: mode === "image" ? "image" : null,
              selectedImages: refreshSelection(selectedRef.current, currentUrl),
            },
            streaming,
          );
        },
        continueStory: (streaming) => continueStory(story.id, streaming),
        speakNext: (speakerId, streaming) => continueStory(story.id, streaming, speakerId),
        undo: () => undoStoryTurn(story.id),
        redo: () => redoStoryTurn(story.id),
        redoable: (signal) => fetchRedoableCount(story.id, signal),
        edit: (messageId, content) => editStoryMessage(story.id, messageId, content),
        selectVersion: (messageId, version) => selectMessageVersion(story.id, messageId, version),
        showMedia: (messageId, galleryItemId) => showTurnMedia(story.id, messageId, galleryItemId),
      },
    };
  }, [story.id, queryClient]);

  const [initialCanvas] = useState(() => readStoryMediaState(story.id));
  const session = useChatSession(backend, initialCanvas);
  const checkpoints = useCheckpointNames(story.id, story.branch.id);

  // Each finished turn changes what the next one sends: an open panel's token counts are read again.
  const newest = session.messages.at(-1)?.id;
  const turnDone = !session.sending && !session.writing;
  useReadNewTurnsAloud(story.id, {
    enabled: generation.data?.read_aloud ?? false,
    messages: session.messages,
    busy: !turnDone,
  });
  useEffect(() => {
    if (turnDone && newest) {
      void queryClient.invalidateQueries({ queryKey: [...STORIES_KEY, story.id, "context"] });
    }
  }, [turnDone, newest, queryClient, story.id]);

  // The close button forgets the story and its messages once the list has taken over the screen.
  const closing = useRef(false);
  useEffect(
    () => () => {
      if (!closing.current) return;
      forgetOpenStory(queryClient, story.id);
      queryClient.removeQueries({ queryKey: storyMessagesKey(story.id) });
    },
    [queryClient, story.id],
  );
  const close = () => {
    closing.current = true;
    navigate("stories");
  };

  const makeCard = async (messageId: string) => {
    if (drafting) return;
    setDrafting(true);
    try {
      const draft = await draftCardFromMessage(story.id, messageId);
      setPanel({ panel: "cards", start: { draft } });
    } catch (error) {
      showError(t("storyInterface.draftFailed", { message: translateServerMessage(errorMessage(error)) }));
    } finally {
      setDrafting(false);
    }
  };

  // What the message rows are handed stays the same object while a turn streams (decision 0130): a streamed
  // word then re-renders the streaming message alone.
  const selection = useMemo<ReferenceSelection>(
    () => ({
      count: selected.length,
      isSelected: (messageId) => selected.some((image) => image.messageId === messageId),
      toggle: (messageId, url) => {
        const result = toggleSelection(selectedRef.current, messageId, url);
        if (result.error) showError(result.error);
        selectedRef.current = result.selected;
        setSelected(result.selected);
      },
      clear: () => setSelected([]),
    }),
    [selected, showError],
  );
  const makeCardRef = useRef(makeCard);
  makeCardRef.current = makeCard;
  const onMakeCard = useCallback((messageId: string) => void makeCardRef.current(messageId), []);
  const narration = useCallback(
    (message: ChatMessage) => (
      <NarrationControl storyId={story.id} messageId={message.id} text={message.content} />
    ),
    [story.id],
  );
  const marker = useCallback(
    (message: ChatMessage) => {
      const name = checkpoints.get(message.id);
      return name ? <CheckpointMarker name={name} /> : null;
    },
    [checkpoints],
  );
  const loadedRef = useRef(session.messages);
  loadedRef.current = session.messages;
  const turnsBefore = session.paging?.turnsBefore ?? 0;
  const moreActions = useCallback(
    (message: ChatMessage) => (
      <BranchMessageMenu
        storyId={story.id}
        messageId={message.id}
        turn={turnsBefore + turnOf(loadedRef.current, message.id)}
        checkpoint={checkpoints.get(message.id) ?? null}
        busy={!turnDone}
        branch={story.branch}
      />
    ),
    [story.id, story.branch, checkpoints, turnDone, turnsBefore],
  );

  const openTool = (tool: StoryTool) => {
    if (tool === "share") setSharing(true);
    else if (tool === "cards") setPanel({ panel: "cards", start: null });
    else setPanel({ panel: tool });
  };

  const header = (
    <div className="flex items-center gap-2 border-b border-line px-3 py-1.5 sm:items-start sm:gap-3 sm:px-5 sm:py-3">
      {/* On a phone one line (issue 46): the title, ellipsised, then the branch's chip; the context is in the
          title's tooltip and Story Settings. Wider, the branch follows the title and the context has a second line. */}
      <div className="grid min-w-0 flex-1 grid-cols-[minmax(0,max-content)_max-content] items-center gap-x-2 gap-y-0.5 [grid-template-areas:'title_branch'] sm:grid-cols-[minmax(0,max-content)_minmax(0,1fr)] sm:[grid-template-areas:'title_branch'_'context_context']">
        <h1
          data-user-text
          className="min-w-0 truncate text-base font-semibold text-ink [grid-area:title] sm:text-lg"
          title={story.context ? `${story.title}: ${story.context}` : story.title}
        >
          {story.title}
        </h1>
        <div className="flex items-center gap-2 justify-self-start [grid-area:branch]">
          <BranchSwitcher story={story} busy={!turnDone} />
          <OfflineBadge compact className="shrink-0" />
        </div>
        {story.context ? (
          <p
            data-user-text
            className="hidden min-w-0 text-sm text-ink-muted [grid-area:context] sm:line-clamp-2 sm:whitespace-normal"
            title={story.context}
          >
            {story.context}
          </p>
        ) : null}
      </div>
      <div className="-me-1 flex shrink-0 items-center sm:-me-2 [&>button]:max-sm:size-8">
        <StoryToolButtons onOpen={openTool} />
        <StoryToolsMenu onOpen={openTool} />
        <button
          type="button"
          onClick={() => setPanel({ panel: "settings" })}
          aria-label={t("storyInterface.settings")}
          title={t("storyInterface.settings")}
          className={iconButtonClasses}
        >
          <Settings2 aria-hidden="true" className="size-5" />
        </button>
        <button
          type="button"
          onClick={close}
          aria-label={t("storyInterface.close")}
          title={t("storyInterface.close")}
          className={iconButtonClasses}
        >
          <X aria-hidden="true" className="size-5" />
        </button>
      </div>
    </div>
  );

  return (
    <SpeakerPortraitsProvider value={portraitOf}>
      <ChatExperience
        session={session}
        header={
          <>
            {header}
            <CreatorNotes storyId={story.id} />
            <ImportNotesNotice storyId={story.id} />
            <LoreNotice storyId={story.id} onOpen={() => setPanel({ panel: "lore" })} />
          </>
        }
        selection={selection}
        downloadPrefix={story.title}
        draftKey={story.id}
        onMakeCard={onMakeCard}
        narration={narration}
        marker={marker}
        moreActions={moreActions}
        inputMode={{ value: inputMode, onChange: setChosenInput }}
        sidePanelOpen={panel !== null}
        onComposerChange={setComposer}
        aboveComposer={
          speakers.length > 0 ? (
            <GroupSpeakerBar
              order={speakerOrder}
              speakers={speakers}
              chosen={chosenSpeakerId}
              onChoose={setChosenSpeakerId}
              onSpeak={() => void session.craft?.speakNext?.(speakerRef.current)}
              busy={session.sending}
            />
          ) : null
        }
      />
      <StoryCardsDialog
        docked
        storyId={panel?.panel === "cards" ? story.id : null}
        start={panel?.panel === "cards" ? panel.start : null}
        onClose={closePanel}
      />
      <StorySettingsDialog
        docked
        story={panel?.panel === "settings" ? story : null}
        onClose={closePanel}
        withMemory
      />
      <NarratorContextPanel
        docked
        storyId={panel?.panel === "context" ? story.id : null}
        selectedImages={selected.length}
        inputMode={inputMode}
        composer={composer}
        onClose={closePanel}
      />
      <CameraPanel
        docked
        storyId={panel?.panel === "camera" ? story.id : null}
        selectedImages={selected.length}
        inputMode={inputMode}
        onClose={closePanel}
      />
      <LoreDraftsPanel docked storyId={panel?.panel === "lore" ? story.id : null} onClose={closePanel} />
      <ShareDialog story={sharing ? story : null} onClose={() => setSharing(false)} />
    </SpeakerPortraitsProvider>
  );
}
