// Story Cards: the story's characters, places and things, each woken by its trigger words. The dialog lists
// them (enable toggle, edit, export, delete) and edits one: name, kind, trigger chips, description with its
// counter, a portrait picked from the gallery or uploaded, a character's voice (when the server has narration
// on), and the advanced lore rules. Triggers that would
// wake the card on almost every message (common words, under 3 letters) are pointed out, and saving one asks
// first. "Make a card" opens it on a draft to review, with the message's picture offered as the portrait. From the list the player imports a card or a lorebook (previewed first), exports
// all cards as a lorebook, and sets the story's lore settings. Docked beside the story (the side panel), its
// title says what the cards take of the narrator's next turn in tokens. The gallery picker scrolls into view
// when it opens (it opens below the portrait, often below the fold).

import { APPEARANCE_MAX_LENGTH } from "@storyverse/contract/camera";
import { overBroadTriggers } from "@storyverse/contract/common-words";
import type { GalleryItem } from "@storyverse/contract/media";
import {
  CARD_DESCRIPTION_MAX_LENGTH,
  CARD_KINDS,
  CARD_NAME_MAX_LENGTH,
  CARD_TRIGGER_MAX_LENGTH,
  CARD_TRIGGERS_MAX,
  type CardDraft,
  type CardKind,
  type CardPortraitInput,
  type CardReferenceInput,
  STORY_CARDS_MAX,
  type StoryCard,
} from "@storyverse/contract/story-cards";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { BookOpen, Contact, FileUp, ImagePlus, Pencil, Plus, Trash2, Upload } from "lucide-react";
import { useEffect, useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "../../../components/button";
import { FormAlert } from "../../../components/form-alert";
import { MediaThumb } from "../../../components/media-thumb";
import { Modal, ModalActions } from "../../../components/modal";
import { FieldLabel, inputClasses, textareaClasses } from "../../../components/text-field";
import { formatList } from "../../../i18n/format";
import { translateServerMessage } from "../../../i18n/server-messages";
import { errorMessage } from "../../../lib/api-errors";
import { readFileAsDataUrl } from "../../../lib/read-file";
import { userImagesQueryOptions } from "../../../shared/gallery/user-images";
import { useVoices } from "../../../shared/voice/api/voices";
import { VoiceField } from "../../../shared/voice/components/voice-field";
import { STORIES_KEY } from "../api/list-stories";
import {
  createStoryCard,
  deleteStoryCard,
  storyCardsKey,
  storyCardsQueryOptions,
  updateStoryCard,
} from "../api/story-cards";
import { CardExportMenu, LoreExportMenu } from "./card-export-menu";
import {
  CardReferenceSlots,
  type ReferenceChoice,
  referenceInput,
  savedExtras,
} from "./card-reference-slots";
import { ChipsInput, withDraft } from "./lore-chips-input";
import { LoreImportPanel } from "./lore-import-panel";
import { type LoreRules, LoreRulesFields, loreRulesOf, loreRulesRequest } from "./lore-rules-fields";
import { LoreSettingsForm } from "./lore-settings-form";
import { TokenCount, useSectionTokens } from "./section-tokens";

/** A failed call's words, in the interface's language when the catalogue knows them. */
const reasonOf = (failure: unknown) => translateServerMessage(errorMessage(failure));

/** What the editor starts from: a saved card, a draft from a message, or nothing (a new card). */
export type CardEditorStart = { card: StoryCard } | { draft: CardDraft } | { blank: true };

interface StoryCardsDialogProps {
  /** The story whose cards are shown; null keeps the dialog closed. */
  storyId: string | null;
  /** Open straight on the editor (e.g. a draft from "Make a card"); null opens the list. */
  start: CardEditorStart | null;
  onClose: () => void;
  /** A side panel beside the story (non-modal) that shows what the cards take of the next turn. */
  docked?: boolean;
}

export function StoryCardsDialog({ storyId, start, onClose, docked = false }: StoryCardsDialogProps) {
  const { t } = useTranslation("stories");
  const tokens = useSectionTokens(docked ? storyId : null);
  return (
    <Modal
      docked={docked}
      open={storyId !== null}
      onOpenChange={(open) => (open ? undefined : onClose())}
      title={t("storyCards.title")}
      titleAside={<TokenCount tokens={tokens?.cards} />}
      description={t("storyCards.description")}
      icon={<Contact className="size-5" />}
    >
      {storyId ? <CardsBody key={storyId} storyId={storyId} start={start} /> : null}
    </Modal>
  );
}

/** What the dialog shows: the list (with a note of what just happened), the editor, the import or the lore settings. */
type View =
  | { view: "list"; notice: string | null }
  | { view: "edit"; start: CardEditorStart }
  | { view: "import" }
  | { view: "settings" };

function CardsBody({ storyId, start }: { storyId: string; start: CardEditorStart | null }) {
  const { t } = useTranslation("stories");
  const [view, setView] = useState<View>(start ? { view: "edit", start } : { view: "list", notice: null });
  // Beside the story the panel stays open while the player uses it: "Make a card" on another message opens the
  // editor on the new draft in place.
  const [shownStart, setShownStart] = useState(start);
  if (start !== shownStart) {
    setShownStart(start);
    if (start) setView({ view: "edit", start });
  }
  // Read again whenever the panel opens: the story view keeps its cards for the speakers' portraits (0154), and
  // cards made meanwhile elsewhere (another tab, an import) must show here.
  const cards = useQuery({ ...storyCardsQueryOptions(storyId), refetchOnMount: "always" });
  const toList = (notice: string | null = null) => setView({ view: "list", notice });
  // A card saved, switched, deleted or imported changes what the next turn sends: its token count is read again.
  const queryClient = useQueryClient();
  useEffect(() => {
    if (cards.dataUpdatedAt === 0) return;
    void queryClient.invalidateQueries({ queryKey: [...STORIES_KEY, storyId, "context"] });
  }, [cards.dataUpdatedAt, queryClient, storyId]);
  if (view.view === "edit") {
    return <CardEditor storyId={storyId} start={view.start} onDone={() => toList()} />;
  }
  if (view.view === "import") {
    return (
      <LoreImportPanel
        storyId={storyId}
        onDone={(imported) => toList(imported > 0 ? t("storyCards.imported", { count: imported }) : null)}
      />
    );
  }
  if (view.view === "settings") {
    return (
      <LoreSettingsForm
        storyId={storyId}
        onDone={(saved) => toList(saved ? t("storyCards.loreSaved") : null)}
      />
    );
  }
  if (cards.isPending) return <p className="text-sm text-ink-muted">{t("storyCards.loading")}</p>;
  if (cards.error) return <FormAlert message={errorMessage(cards.error)} />;
  return (
    <CardList
      storyId={storyId}
      cards={cards.data}
      notice={view.notice}
      onEdit={(editStart) => setView({ view: "edit", start: editStart })}
      onImport={() => setView({ view: "import" })}
      onSettings={() => setView({ view: "settings" })}
    />
  );
}

function CardList({
  storyId,
  cards,
  notice,
  onEdit,
  onImport,
  onSettings,
}: {
  storyId: string;
  cards: StoryCard[];
  notice: string | null;
  onEdit: (start: CardEditorStart) => void;
  onImport: () => void;
  onSettings: () => void;
}) {
  const { t } = useTranslation("stories");
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const replace = (card: StoryCard) =>
    queryClient.setQueryData<StoryCard[]>(storyCardsKey(storyId), (list) =>
      list?.map((c) => (c.id === card.id ? card : c)),
    );

  const toggle = async (card: StoryCard) => {
    setError(null);
    setBusy(card.id);
    try {
      replace(await updateStoryCard(storyId, card.id, { enabled: !card.enabled }));
    } catch (failure) {
      setError(t("storyCards.toggleFailed", { message: reasonOf(failure) }));
    } finally {
      setBusy(null);
    }
  };
  const remove = async (card: StoryCard) => {
    setError(null);
    setBusy(card.id);
    try {
      await deleteStoryCard(storyId, card.id);
      queryClient.setQueryData<StoryCard[]>(storyCardsKey(storyId), (list) =>
        list?.filter((c) => c.id !== card.id),
      );
      setConfirming(null);
    } catch (failure) {
      setError(t("storyCards.deleteFailed", { message: reasonOf(failure) }));
    } finally {
      setBusy(null);
    }
  };

  return (
    <div className="space-y-4">
      <div className="flex items-center justify-between gap-3">
        <p className="text-sm text-ink-muted tabular-nums">
          {t("storyCards.count", { count: cards.length, max: STORY_CARDS_MAX })}
        </p>
        <Button
          size="sm"
          icon={<Plus aria-hidden="true" className="size-4" />}
          disabled={cards.length >= STORY_CARDS_MAX}
          onClick={() => onEdit({ blank: true })}
        >
          {t("storyCards.newCard")}
        </Button>
      </div>
      <div className="flex flex-wrap gap-2">
        <Button
          size="sm"
          variant="secondary"
          icon={<FileUp aria-hidden="true" className="size-4" />}
          disabled={cards.length >= STORY_CARDS_MAX}
          onClick={onImport}
        >
          {t("storyCards.import")}
        </Button>
        <LoreExportMenu storyId={storyId} disabled={cards.length === 0} onError={setError} />
        <Button
          size="sm"
          variant="secondary"
          icon={<BookOpen aria-hidden="true" className="size-4" />}
          onClick={onSettings}
        >
          {t("storyCards.loreSettings")}
        </Button>
      </div>
      {notice ? <FormAlert tone="success" message={notice} /> : null}
      {error ? <FormAlert message={error} /> : null}
      {cards.length === 0 ? (
        <p className="rounded-xl border border-dashed border-line px-4 py-6 text-center text-sm text-ink-muted">
          {t("storyCards.empty")}
        </p>
      ) : (
        <ul aria-label={t("storyCards.list")} className="divide-y divide-line rounded-xl border border-line">
          {cards.map((card) => (
            <li key={card.id} aria-label={card.name} className="flex gap-3 px-3 py-3">
              <Portrait card={card} />
              <div className="min-w-0 flex-1">
                <div className="flex flex-wrap items-baseline gap-x-2">
                  <p data-user-text className="truncate font-semibold text-ink">
                    {card.name}
                  </p>
                  <span className="text-xs text-ink-muted">{t(`cardKinds.${card.kind}`)}</span>
                  {card.enabled ? null : (
                    <span className="text-xs text-ink-muted">{t("storyCards.off")}</span>
                  )}
                  {card.constant ? (
                    <span className="rounded-full bg-accent-soft px-2 py-0.5 text-xs font-medium text-accent-ink">
                      {t("storyCards.alwaysOn")}
                    </span>
                  ) : null}
                </div>
                {card.triggers.length > 0 ? (
                  <ul
                    aria-label={t("storyCards.triggersOf", { name: card.name })}
                    className="mt-1 flex flex-wrap gap-1"
                  >
                    {card.triggers.map((trigger) => (
                      <li
                        key={trigger}
                        data-user-text
                        className="rounded-full bg-surface-2 px-2 py-0.5 text-xs break-all text-ink-muted"
                      >
                        {trigger}
                      </li>
                    ))}
                  </ul>
                ) : null}
                {confirming === card.id ? (
                  <div className="mt-2 flex flex-wrap items-center gap-2 text-sm">
                    <span className="text-ink">{t("storyCards.confirmDelete", { name: card.name })}</span>
                    <Button
                      size="xs"
                      variant="danger"
                      loading={busy === card.id}
                      onClick={() => void remove(card)}
                    >
                      {t("storyCards.deleteCard")}
                    </Button>
                    <Button size="xs" variant="ghost" onClick={() => setConfirming(null)}>
                      {t("storyCards.keep")}
                    </Button>
                  </div>
                ) : (
                  <div className="mt-1 flex flex-wrap items-center gap-1">
                    <label className="me-2 inline-flex cursor-pointer items-center gap-2 text-xs text-ink-muted">
                      <input
                        type="checkbox"
                        role="switch"
                        aria-checked={card.enabled}
                        checked={card.enabled}
                        disabled={busy === card.id}
                        onChange={() => void toggle(card)}
                        aria-label={t("storyCards.enabledFor", { name: card.name })}
                        className="size-4 accent-accent-500"
                      />
                      {t("storyCards.enabled")}
                    </label>
                    <Button
                      size="xs"
                      variant="ghost"
                      icon={<Pencil aria-hidden="true" className="size-3.5" />}
                      aria-label={t("storyCards.editCard", { name: card.name })}
                      onClick={() => onEdit({ card })}
                    >
                      {t("storyCards.edit")}
                    </Button>
                    <CardExportMenu storyId={storyId} card={card} onError={setError} />
                    <Button
                      size="xs"
                      variant="ghost"
                      icon={<Trash2 aria-hidden="true" className="size-3.5" />}
                      aria-label={t("storyCards.deleteCardNamed", { name: card.name })}
                      onClick={() => setConfirming(card.id)}
                    >
                      {t("storyCards.delete")}
                    </Button>
                  </div>
                )}
              </div>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function Portrait({ card }: { card: Pick<StoryCard, "name" | "portrait"> }) {
  const { t } = useTranslation("stories");
  return card.portrait ? (
    <img
      src={card.portrait.url}
      alt={t("storyCards.portraitOf", { name: card.name })}
      className="size-14 shrink-0 rounded-xl border border-line object-cover"
    />
  ) : (
    <span
      aria-hidden="true"
      className="grid size-14 shrink-0 place-items-center rounded-xl bg-accent-soft text-lg font-bold text-accent-ink"
    >
      {card.name.slice(0, 1).toUpperCase()}
    </span>
  );
}

/** The portrait as the editor holds it: unchanged, picked from the gallery, uploaded, or removed. */
type PortraitChoice =
  | { kind: "kept"; url: string | null }
  | { kind: "gallery"; id: string; url: string }
  | { kind: "upload"; data: string; name: string }
  | { kind: "none" };

function CardEditor({
  storyId,
  start,
  onDone,
}: {
  storyId: string;
  start: CardEditorStart;
  onDone: () => void;
}) {
  const { t } = useTranslation("stories", { keyPrefix: "cardEditor" });
  const { t: tStories } = useTranslation("stories");
  const queryClient = useQueryClient();
  const id = useId();
  const saved = "card" in start ? start.card : null;
  const draft = "draft" in start ? start.draft : null;
  const initial = saved ?? draft;
  /** The drafted message's own picture, offered (and chosen by default) as the portrait. */
  const scene = draft?.portrait ?? null;
  const [name, setName] = useState(initial?.name.slice(0, CARD_NAME_MAX_LENGTH) ?? "");
  const [kind, setKind] = useState<CardKind>(initial?.kind ?? "character");
  const [triggers, setTriggers] = useState<string[]>(initial?.triggers.slice(0, CARD_TRIGGERS_MAX) ?? []);
  const [triggerDraft, setTriggerDraft] = useState("");
  const [rules, setRules] = useState<LoreRules>(() => loreRulesOf(saved));
  const [description, setDescription] = useState(
    initial?.description.slice(0, CARD_DESCRIPTION_MAX_LENGTH) ?? "",
  );
  const [enabled, setEnabled] = useState(saved?.enabled ?? true);
  const [appearance, setAppearance] = useState(saved?.appearance ?? "");
  const voices = useVoices();
  const [voice, setVoice] = useState<string | null>(saved?.voice ?? null);
  const [portrait, setPortrait] = useState<PortraitChoice>(
    scene
      ? { kind: "gallery", id: scene.gallery_item_id, url: scene.url }
      : { kind: "kept", url: saved?.portrait?.url ?? null },
  );
  /** The over-broad triggers the player is being asked about before saving. */
  const [confirmBroad, setConfirmBroad] = useState<string[] | null>(null);
  /** The card's other pictures after the portrait (decision 0161); sent as `references` once changed. */
  const [extras, setExtras] = useState<ReferenceChoice[]>(() => savedExtras(saved));
  const [extrasChanged, setExtrasChanged] = useState(false);
  const [picking, setPicking] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);

  const portraitUrl =
    portrait.kind === "kept" || portrait.kind === "gallery"
      ? portrait.url
      : portrait.kind === "upload"
        ? portrait.data
        : null;

  const portraitInput = (): CardPortraitInput | undefined => {
    if (portrait.kind === "kept") return saved ? undefined : null;
    if (portrait.kind === "gallery") return { gallery_item_id: portrait.id };
    if (portrait.kind === "upload") return { data: portrait.data, name: portrait.name };
    return null;
  };

  const typedTriggers = withDraft(triggers, triggerDraft, CARD_TRIGGERS_MAX);
  // An always-on card ignores its triggers, so they cannot be too broad.
  const broad = rules.constant ? [] : overBroadTriggers(typedTriggers);

  const save = async (broadConfirmed = false) => {
    // A draft that came without a name wakes on the name the player gives it, unless they add triggers.
    const allTriggers =
      draft && !draft.name && typedTriggers.length === 0 && name.trim() ? [name.trim()] : typedTriggers;
    if (!name.trim()) return setError(t("nameRequired"));
    if (allTriggers.length === 0 && !rules.constant) {
      return setError(t("triggerRequired"));
    }
    const lore = loreRulesRequest(
      rules,
      withDraft(rules.secondaryTriggers, rules.secondaryDraft, CARD_TRIGGERS_MAX),
    );
    if (!lore.ok) return setError(lore.error);
    const tooBroad = rules.constant ? [] : overBroadTriggers(allTriggers);
    if (tooBroad.length > 0 && !broadConfirmed) {
      setError(null);
      return setConfirmBroad(tooBroad);
    }
    setConfirmBroad(null);
    setError(null);
    setSaving(true);
    try {
      const fields = {
        name: name.trim(),
        kind,
        triggers: allTriggers,
        description,
        enabled,
        ...lore.fields,
        // Only a character's looks go to the scenes; other kinds keep theirs untouched.
        ...(kind === "character" ? { appearance: appearance.trim() } : {}),
      };
      const chosen = portraitInput();
      // Changed extra pictures go as the whole list, the portrait first (kept as it is when unchanged).
      const pictures = extrasChanged
        ? {
            references: [
              ...(chosen === undefined ? keptPortrait(saved) : chosen ? [chosen] : []),
              ...extras.map(referenceInput),
            ],
          }
        : chosen === undefined
          ? {}
          : { portrait: chosen };
      const card = saved
        ? await updateStoryCard(storyId, saved.id, {
            ...fields,
            ...pictures,
            ...(voice === saved.voice ? {} : { voice }),
          })
        : await createStoryCard(storyId, {
            ...fields,
            ...(extrasChanged ? pictures : { portrait: chosen ?? null }),
            voice,
          });
      queryClient.setQueryData<StoryCard[]>(storyCardsKey(storyId), (list) =>
        list ? (saved ? list.map((c) => (c.id === card.id ? card : c)) : [...list, card]) : list,
      );
      void queryClient.invalidateQueries({ queryKey: storyCardsKey(storyId) });
      onDone();
    } catch (failure) {
      setError(t("saveFailed", { message: reasonOf(failure) }));
    } finally {
      setSaving(false);
    }
  };

  return (
    <form
      className="space-y-5"
      aria-label={saved ? t("editLabel", { name: saved.name }) : t("newLabel")}
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
    >
      {draft ? (
        <p role="status" className="rounded-xl border border-line bg-surface-2 px-4 py-3 text-sm text-ink">
          {draft.name ? t("draftNamed") : t("draftUnnamed")}
        </p>
      ) : null}
      {saved?.creator_notes ? (
        <section
          aria-label={t("creatorNotes")}
          className="rounded-xl border border-line bg-surface-2 px-4 py-3 text-sm text-ink"
        >
          <p className="font-medium">{t("creatorNotes")}</p>
          <p
            data-user-text
            className="mt-1 max-h-40 overflow-y-auto whitespace-pre-wrap break-words text-ink-muted"
          >
            {saved.creator_notes}
          </p>
          <p className="mt-2 text-xs text-ink-muted">{t("creatorNotesHint")}</p>
        </section>
      ) : null}
      <div>
        <FieldLabel htmlFor={`${id}-name`} counter={`${name.length}/${CARD_NAME_MAX_LENGTH}`}>
          {t("name")}
        </FieldLabel>
        <input
          id={`${id}-name`}
          value={name}
          onChange={(event) => setName(event.target.value)}
          maxLength={CARD_NAME_MAX_LENGTH}
          placeholder={t("namePlaceholder")}
          className={`${inputClasses} mt-2`}
        />
      </div>
      <div>
        <FieldLabel htmlFor={`${id}-kind`}>{t("kind")}</FieldLabel>
        <select
          id={`${id}-kind`}
          value={kind}
          onChange={(event) => setKind(event.target.value as CardKind)}
          className={`${inputClasses} mt-2`}
        >
          {CARD_KINDS.map((value) => (
            <option key={value} value={value}>
              {tStories(`cardKinds.${value}`)}
            </option>
          ))}
        </select>
      </div>
      {voices && kind === "character" ? (
        <VoiceField
          id={`${id}-voice`}
          label={t("voice")}
          noneLabel={t("voiceNone")}
          voices={voices}
          value={voice}
          onChange={setVoice}
          hint={t("voiceHint")}
        />
      ) : null}
      <div>
        <FieldLabel htmlFor={`${id}-trigger`} counter={`${triggers.length}/${CARD_TRIGGERS_MAX}`}>
          {t("triggers")}
        </FieldLabel>
        <ChipsInput
          id={`${id}-trigger`}
          listLabel={t("triggerWords")}
          removeLabel={t("removeTrigger")}
          values={triggers}
          onChange={setTriggers}
          draft={triggerDraft}
          onDraftChange={setTriggerDraft}
          max={CARD_TRIGGERS_MAX}
          maxLength={CARD_TRIGGER_MAX_LENGTH}
          placeholder={t("triggerPlaceholder")}
          describedBy={`${id}-trigger-hint`}
          tooLongMessage={t("triggerTooLong", { max: CARD_TRIGGER_MAX_LENGTH })}
          tooManyMessage={t("tooManyTriggers", { max: CARD_TRIGGERS_MAX })}
          onError={setError}
        />
        <p id={`${id}-trigger-hint`} className="mt-2 text-sm text-ink-muted">
          {t("triggerHint")}
        </p>
        {broad.length > 0 ? (
          <p className="mt-2 text-sm font-medium text-amber-800 dark:text-amber-200">
            {t("tooCommon", { words: formatList(broad, "unit") })}
          </p>
        ) : null}
      </div>
      <div>
        <FieldLabel
          htmlFor={`${id}-description`}
          counter={`${description.length}/${CARD_DESCRIPTION_MAX_LENGTH}`}
        >
          {t("description")}
        </FieldLabel>
        <textarea
          id={`${id}-description`}
          value={description}
          onChange={(event) => setDescription(event.target.value)}
          maxLength={CARD_DESCRIPTION_MAX_LENGTH}
          // A card-ecosystem description runs to thousands of characters: a taller box for a long one.
          rows={description.length > 1000 ? 14 : 4}
          placeholder={t("descriptionPlaceholder")}
          className={`${textareaClasses} mt-2`}
        />
      </div>
      {kind === "character" ? (
        <div>
          <FieldLabel htmlFor={`${id}-appearance`} counter={`${appearance.length}/${APPEARANCE_MAX_LENGTH}`}>
            {t("appearance")}
          </FieldLabel>
          <textarea
            id={`${id}-appearance`}
            value={appearance}
            onChange={(event) => setAppearance(event.target.value)}
            maxLength={APPEARANCE_MAX_LENGTH}
            rows={2}
            placeholder={t("appearancePlaceholder")}
            className={`${textareaClasses} mt-2`}
          />
        </div>
      ) : null}
      <fieldset>
        <legend className="text-sm font-medium text-ink">{t("portrait")}</legend>
        <div className="mt-2 flex items-center gap-3">
          {portraitUrl ? (
            <img
              src={portraitUrl}
              alt={name ? t("portraitOf", { name }) : t("portraitOfCard")}
              className="size-20 shrink-0 rounded-xl border border-line object-cover"
            />
          ) : (
            <span className="grid size-20 shrink-0 place-items-center rounded-xl border border-dashed border-line text-xs text-ink-muted">
              {t("none")}
            </span>
          )}
          <div className="flex flex-wrap gap-2">
            <Button
              size="sm"
              variant="secondary"
              icon={<ImagePlus aria-hidden="true" className="size-4" />}
              aria-expanded={picking}
              onClick={() => setPicking(!picking)}
            >
              {t("fromGallery")}
            </Button>
            <Button
              size="sm"
              variant="secondary"
              icon={<Upload aria-hidden="true" className="size-4" />}
              onClick={() => fileInput.current?.click()}
            >
              {t("upload")}
            </Button>
            {portraitUrl ? (
              <Button size="sm" variant="ghost" onClick={() => setPortrait({ kind: "none" })}>
                {t("removePortrait")}
              </Button>
            ) : null}
          </div>
          <input
            ref={fileInput}
            type="file"
            accept="image/png,image/jpeg,image/webp,image/gif"
            aria-label={t("uploadPortrait")}
            className="hidden"
            onChange={async (event) => {
              const file = event.target.files?.[0];
              event.target.value = "";
              if (!file) return;
              if (!file.type.startsWith("image/")) return setError(t("imagesOnly"));
              setPortrait({ kind: "upload", data: await readFileAsDataUrl(file), name: file.name });
              setPicking(false);
            }}
          />
        </div>
        {picking ? (
          <GalleryChoice
            selectedId={
              portrait.kind === "gallery" ? portrait.id : (saved?.portrait?.gallery_item_id ?? null)
            }
            onPick={(item) => {
              setPortrait({ kind: "gallery", id: item.id, url: item.url });
              setPicking(false);
            }}
          />
        ) : null}
        {scene ? (
          <label className="mt-3 flex items-center gap-2 text-sm text-ink">
            <input
              type="checkbox"
              checked={portrait.kind === "gallery" && portrait.id === scene.gallery_item_id}
              onChange={(event) =>
                setPortrait(
                  event.target.checked
                    ? { kind: "gallery", id: scene.gallery_item_id, url: scene.url }
                    : { kind: "none" },
                )
              }
              className="size-4 accent-accent-500"
            />
            {t("useScene")}
          </label>
        ) : null}
        <p className="mt-2 text-sm text-ink-muted">{t("portraitHint")}</p>
      </fieldset>
      <CardReferenceSlots
        extras={extras}
        onChange={(next) => {
          setExtras(next);
          setExtrasChanged(true);
        }}
        onError={setError}
        picker={(onPick) => <GalleryChoice selectedId={null} onPick={onPick} forView />}
      />
      <label className="flex items-center gap-2 text-sm text-ink">
        <input
          type="checkbox"
          checked={enabled}
          onChange={(event) => setEnabled(event.target.checked)}
          className="size-4 accent-accent-500"
        />
        {t("enabled")}
      </label>
      <LoreRulesFields id={id} rules={rules} onChange={setRules} onError={setError} />
      {error ? <FormAlert message={error} /> : null}
      {confirmBroad ? (
        <div
          role="alertdialog"
          aria-label={t("overBroad")}
          className="rounded-xl border border-amber-500/40 bg-amber-400/10 px-4 py-3 text-sm text-ink"
        >
          <p>{t("overBroadText", { words: formatList(confirmBroad, "unit") })}</p>
          <div className="mt-3 flex flex-wrap gap-2">
            <Button size="sm" loading={saving} loadingText={t("saving")} onClick={() => void save(true)}>
              {t("saveAnyway")}
            </Button>
            <Button size="sm" variant="secondary" disabled={saving} onClick={() => setConfirmBroad(null)}>
              {t("changeTriggers")}
            </Button>
          </div>
        </div>
      ) : null}
      <ModalActions>
        <Button variant="secondary" onClick={onDone} disabled={saving}>
          {t("cancel")}
        </Button>
        <Button type="submit" loading={saving} loadingText={t("saving")}>
          {t("save")}
        </Button>
      </ModalActions>
    </form>
  );
}

/** A saved card's portrait, sent again unchanged in a list of references (a gallery image, or its upload). */
function keptPortrait(saved: StoryCard | null): CardReferenceInput[] {
  if (!saved?.portrait) return [];
  return [
    saved.portrait.gallery_item_id
      ? { gallery_item_id: saved.portrait.gallery_item_id }
      : { kept_url: saved.portrait.url },
  ];
}

/**
 * The gallery picker opens under the portrait, often below the fold of the dialog or panel: it scrolls itself
 * into view, smoothly unless the player asks for less motion.
 */
function bringIntoView(element: HTMLElement | null) {
  if (!element) return;
  const reduce = window.matchMedia?.("(prefers-reduced-motion: reduce)").matches ?? false;
  element.scrollIntoView?.({ block: "nearest", behavior: reduce ? "auto" : "smooth" });
}

function GalleryChoice({
  selectedId,
  onPick,
  forView = false,
}: {
  selectedId: string | null;
  onPick: (item: { id: string; url: string }) => void;
  /** Picking one of the card's other pictures (decision 0161), not its portrait. */
  forView?: boolean;
}) {
  const { t } = useTranslation("stories", { keyPrefix: "cardEditor" });
  const images = useQuery(userImagesQueryOptions());
  return (
    // Keyed by the query's state: brought into view when it opens and again once the images are in (the grid
    // is taller than "Loading").
    <div key={images.status} ref={bringIntoView}>
      {images.isPending ? (
        <p className="mt-3 text-sm text-ink-muted">{t("loadingImages")}</p>
      ) : images.error ? (
        <FormAlert className="mt-3" message={errorMessage(images.error)} />
      ) : images.data.length === 0 ? (
        <p className="mt-3 text-sm text-ink-muted">{t("noImages")}</p>
      ) : (
        <GalleryGrid images={images.data} selectedId={selectedId} onPick={onPick} forView={forView} />
      )}
    </div>
  );
}

function GalleryGrid({
  images,
  selectedId,
  onPick,
  forView,
}: {
  images: GalleryItem[];
  selectedId: string | null;
  onPick: (item: { id: string; url: string }) => void;
  forView: boolean;
}) {
  const { t } = useTranslation("stories", { keyPrefix: "cardEditor" });
  return (
    <ul
      aria-label={t("yourImages")}
      className="mt-3 grid max-h-64 grid-cols-4 gap-2 overflow-y-auto sm:grid-cols-5"
    >
      {images.map((item, index) => (
        <li key={item.id}>
          <button
            type="button"
            aria-label={t(forView ? "addImageAsView" : "useImage", { number: index + 1 })}
            aria-pressed={item.id === selectedId}
            onClick={() => onPick({ id: item.id, url: item.thumbnail_url ?? item.url })}
            className="block w-full overflow-hidden rounded-lg border-2 border-transparent focus-visible:outline-2 aria-pressed:border-accent-500"
          >
            <MediaThumb
              src={item.thumbnail_url ?? item.url}
              type="image"
              alt={item.description || t("image", { number: index + 1 })}
              eager={index < 10}
              className="aspect-square w-full"
            />
          </button>
        </li>
      ))}
    </ul>
  );
}
