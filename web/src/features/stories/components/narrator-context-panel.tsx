// "What the narrator sees": the exact messages the next turn would send the narrator, with the tokens each
// part takes out of the budget, and the Story Cards it wakes with why each fired (a trigger and where it
// was found, or always on) and which were left out to keep within the lore budget; the older exchanges it
// recalls, each with why (recalled-exchanges.tsx). It follows the composer (issue 46): the turn's kind is the
// composer's mode (Chat, Image or Video) and its next message the composer's unsent words, as they change;
// both can be tried otherwise here. Without a next message, it shows what Continue would send.

import type { ChatMode } from "@storyverse/contract/chat";
import type { AspectRatio, InputMode } from "@storyverse/contract/generation-settings";
import type { CardActivationReason, NarratorContext } from "@storyverse/contract/story-craft";
import { useQuery } from "@tanstack/react-query";
import { Eye } from "lucide-react";
import { useEffect, useState } from "react";
import { Trans, useTranslation } from "react-i18next";
import { Button } from "../../../components/button";
import { Modal } from "../../../components/modal";
import { FieldLabel, inputClasses } from "../../../components/text-field";
import { formatList, formatNumber } from "../../../i18n/format";
import { i18n } from "../../../i18n/i18n";
import { translateServerMessage } from "../../../i18n/server-messages";
import { errorMessage } from "../../../lib/api-errors";
import { narratorContextQueryOptions } from "../api/narrator-context";
import { RecalledExchanges } from "./recalled-exchanges";

/** A card kind's name; a kind this page does not know (a newer server) is shown as it came. */
const KINDS = ["character", "place", "thing", "other"] as const;
const isKnownKind = (kind: string): kind is (typeof KINDS)[number] =>
  (KINDS as readonly string[]).includes(kind);

/** The aspect ratios' names in the stories namespace (a key cannot hold the ratio's colon). */
const RATIO_KEYS: Record<AspectRatio, "square" | "landscape" | "portrait" | "wide" | "tall" | "cinema"> = {
  "1:1": "square",
  "4:3": "landscape",
  "3:4": "portrait",
  "16:9": "wide",
  "9:16": "tall",
  "21:9": "cinema",
};

/**
 * Why a card fired, in the interface's language, from the server's structured reason (its `because` is the same
 * in English): `always on`, `"Mara" in your message, and "sword"`, `"harbour" in 2 messages back`.
 */
function cardReasonText(reason: CardActivationReason): string {
  if (reason.kind === "constant") return i18n.t("stories:narratorContext.whyAlwaysOn");
  const quoted = (keys: string[]) =>
    formatList(
      keys.map((key) => i18n.t("stories:narratorContext.whyQuoted", { key })),
      "unit",
    );
  return [
    reason.messages_back === 0
      ? i18n.t("stories:narratorContext.whyInMessage", { key: reason.key })
      : i18n.t("stories:narratorContext.whyBack", { key: reason.key, count: reason.messages_back }),
    ...(reason.secondary?.length
      ? [i18n.t("stories:narratorContext.whyAlso", { keys: quoted(reason.secondary) })]
      : []),
    ...(reason.without?.length
      ? [i18n.t("stories:narratorContext.whyWithout", { keys: quoted(reason.without) })]
      : []),
  ].join(", ");
}

/** How long the composer's words rest before the preview asks for them. */
const PREVIEW_PAUSE_MS = 400;

export function NarratorContextPanel({
  storyId,
  selectedImages = 0,
  inputMode = null,
  composer = null,
  docked = false,
  onClose,
}: {
  storyId: string | null;
  /** How many images the player has selected for the next turn (they guide the scene before portraits). */
  selectedImages?: number;
  /** The composer's Do / Say / Story (null: the story's default). */
  inputMode?: InputMode | null;
  /** The composer's mode and unsent words: the preview follows them. */
  composer?: { mode: ChatMode; draft: string } | null;
  /** A side panel beside the story (non-modal). */
  docked?: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation("stories");
  return (
    <Modal
      docked={docked}
      open={storyId !== null}
      onOpenChange={(open) => (open ? undefined : onClose())}
      title={t("narratorContext.title")}
      description={t("narratorContext.description")}
      icon={<Eye className="size-5" />}
    >
      {storyId ? (
        <ContextView
          storyId={storyId}
          selectedImages={selectedImages}
          inputMode={inputMode}
          composer={composer}
        />
      ) : null}
    </Modal>
  );
}

function ContextView({
  storyId,
  selectedImages,
  inputMode,
  composer,
}: {
  storyId: string;
  selectedImages: number;
  inputMode: InputMode | null;
  composer: { mode: ChatMode; draft: string } | null;
}) {
  const { t } = useTranslation("stories");
  const composerDraft = composer?.draft.trim() ?? "";
  const [draft, setDraft] = useState(composerDraft);
  const [prompt, setPrompt] = useState(composerDraft);
  // Which kind of turn to preview, the composer's unless chosen here: a chat turn has no scene, so no image
  // references.
  const [mode, setMode] = useState<ChatMode>(composer?.mode ?? "image");
  const composerMode = composer?.mode;
  useEffect(() => {
    if (composerMode) setMode(composerMode);
  }, [composerMode]);
  // The composer's words, once the player pauses typing (one request per pause, not per key).
  const [composerSeen, setComposerSeen] = useState(composerDraft);
  useEffect(() => {
    if (composerDraft === composerSeen) return;
    const timer = window.setTimeout(() => {
      setComposerSeen(composerDraft);
      setDraft(composerDraft);
      setPrompt(composerDraft);
    }, PREVIEW_PAUSE_MS);
    return () => window.clearTimeout(timer);
  }, [composerDraft, composerSeen]);
  const context = useQuery(narratorContextQueryOptions(storyId, prompt, selectedImages, mode, inputMode));
  return (
    <div className="space-y-5">
      <form
        // The message on its own line: beside the Turn select and Show its placeholder was cut off.
        className="flex flex-wrap items-end gap-2"
        onSubmit={(event) => {
          event.preventDefault();
          setPrompt(draft);
        }}
      >
        <div className="w-full">
          <FieldLabel htmlFor="narrator-context-prompt" aside={t("narratorContext.optional")}>
            {t("narratorContext.nextMessage")}
          </FieldLabel>
          <input
            id="narrator-context-prompt"
            value={draft}
            onChange={(event) => setDraft(event.target.value)}
            placeholder={t("narratorContext.nextMessagePlaceholder")}
            className={`${inputClasses} mt-2`}
          />
        </div>
        <div>
          <FieldLabel htmlFor="narrator-context-mode">{t("narratorContext.turn")}</FieldLabel>
          <select
            id="narrator-context-mode"
            value={mode}
            onChange={(event) => setMode(event.target.value as ChatMode)}
            className={`${inputClasses} mt-2 w-auto`}
          >
            <option value="image">{t("narratorContext.modes.image")}</option>
            <option value="video">{t("narratorContext.modes.video")}</option>
            <option value="chat">{t("narratorContext.modes.chat")}</option>
          </select>
        </div>
        <Button type="submit" size="sm" variant="secondary">
          {t("narratorContext.show")}
        </Button>
      </form>
      {context.isPending ? (
        <p role="status" className="text-sm text-ink-muted">
          {t("narratorContext.loading")}
        </p>
      ) : context.error ? (
        <p role="alert" data-server-text className="text-sm text-danger">
          {translateServerMessage(errorMessage(context.error))}
        </p>
      ) : (
        <ContextBody context={context.data} mode={mode} storyId={storyId} />
      )}
    </div>
  );
}

/** Long texts the story keeps whole but this turn sends only in part (or not at all) to fit the budget. */
function CutToFit({ cuts }: { cuts: NarratorContext["cut_to_fit"] }) {
  const { t } = useTranslation("stories");
  if (cuts.length === 0) return null;
  return (
    <ul aria-label={t("narratorContext.cutList")} className="mt-2 space-y-1 text-sm text-ink-muted">
      {cuts.map((cut) => (
        <li key={cut.part} className="rounded-xl border border-line bg-surface-2 px-3 py-2">
          <Trans
            t={t}
            i18nKey={cut.kept_characters === 0 ? "narratorContext.cutAll" : "narratorContext.cutSome"}
            values={{
              part: t(`narratorContext.cuts.${cut.part}`),
              kept: cut.kept_characters,
              total: cut.total_characters,
            }}
            components={{ name: <span className="font-semibold text-ink" /> }}
          />
        </li>
      ))}
    </ul>
  );
}

function ContextBody({
  context,
  mode,
  storyId,
}: {
  context: NarratorContext;
  mode: ChatMode;
  storyId: string;
}) {
  const { t } = useTranslation("stories");
  return (
    <>
      <section aria-label={t("narratorContext.tokenBudget")}>
        <p className="text-sm font-semibold text-ink">
          {t("narratorContext.budgetTotal", { total: context.total_tokens, budget: context.budget_tokens })}
        </p>
        <ul className="mt-2 divide-y divide-line rounded-xl border border-line text-sm">
          {context.parts.map(({ part, tokens }) => (
            <li key={part} className="flex justify-between gap-3 px-3 py-2">
              <span className="text-ink-muted">
                {part === "history" && context.dropped_messages > 0
                  ? t("narratorContext.historyLeftOut", {
                      part: t("narratorContext.parts.history"),
                      count: context.dropped_messages,
                    })
                  : t(`narratorContext.parts.${part}`)}
              </span>
              <span className="font-semibold text-ink tabular-nums">
                {t("sectionTokens.tokens", { count: tokens })}
              </span>
            </li>
          ))}
        </ul>
        <CutToFit cuts={context.cut_to_fit} />
      </section>
      <GenerationSummary generation={context.generation} />
      <section aria-label={t("narratorContext.activeCards")}>
        <h3 className="text-sm font-semibold text-ink">{t("narratorContext.activeCards")}</h3>
        {context.active_cards.length === 0 ? (
          <p className="mt-1 text-sm text-ink-muted">{t("narratorContext.noActiveCards")}</p>
        ) : (
          <ul className="mt-2 divide-y divide-line rounded-xl border border-line text-sm">
            {context.active_cards.map((card) => {
              const leftOut = card.dropped_for_budget || !card.in_context;
              return (
                <li key={card.id} aria-label={card.name} className="px-3 py-2">
                  <div className="flex flex-wrap items-baseline gap-x-2 gap-y-1">
                    <span
                      data-user-text
                      className={`font-semibold ${leftOut ? "text-ink-muted" : "text-ink"}`}
                    >
                      {card.name}
                    </span>
                    <span className="text-xs text-ink-muted">
                      {isKnownKind(card.kind) ? t(`cardKinds.${card.kind}`) : card.kind}
                    </span>
                    {leftOut ? (
                      <span className="rounded-full border border-line px-2 py-0.5 text-xs font-medium text-ink-muted">
                        {card.dropped_for_budget
                          ? t("narratorContext.leftOutBudget")
                          : t("narratorContext.leftOutNoRoom")}
                      </span>
                    ) : null}
                  </div>
                  <p className="mt-0.5 break-words text-ink-muted">
                    <span className="font-medium">{t("narratorContext.why")}</span>{" "}
                    <span>{cardReasonText(card.reason)}</span>
                  </p>
                </li>
              );
            })}
          </ul>
        )}
      </section>
      <RecalledExchanges storyId={storyId} recalled={context.recalled} />
      <section aria-label={t("narratorContext.imageReferences")}>
        <h3 className="text-sm font-semibold text-ink">{t("narratorContext.imageReferences")}</h3>
        {context.image_references.length === 0 ? (
          <p className="mt-1 text-sm text-ink-muted">
            {mode === "chat" ? t("narratorContext.chatNoScene") : t("narratorContext.wordsAlone")}
          </p>
        ) : (
          <ol className="mt-2 flex flex-wrap gap-2">
            {context.image_references.map((reference) =>
              reference.source === "selected" ? (
                <li
                  key={`selected-${reference.position}`}
                  className="grid size-16 place-items-center rounded-xl border border-line bg-surface-2 px-1 text-center text-xs text-ink-muted"
                >
                  {t("narratorContext.selectedImage", { number: reference.position + 1 })}
                </li>
              ) : (
                <li
                  key={reference.source === "persona" ? "persona" : reference.card_id}
                  className="w-16 text-center"
                >
                  <img
                    src={reference.url}
                    alt={t("narratorContext.portraitOf", { name: reference.name })}
                    className="size-16 rounded-xl border border-line object-cover"
                  />
                  <span data-user-text className="mt-1 block truncate text-xs text-ink-muted">
                    {reference.name}
                  </span>
                </li>
              ),
            )}
          </ol>
        )}
      </section>
      <section aria-label={t("narratorContext.messagesSent")}>
        <h3 className="text-sm font-semibold text-ink">{t("narratorContext.messagesSent")}</h3>
        <ol className="mt-2 space-y-2">
          {context.messages.map((message, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: the list is replaced whole, never reordered
            <li key={index} className="rounded-xl border border-line bg-surface-2 px-3 py-2">
              <p className="text-xs font-semibold tracking-wide text-ink-muted uppercase">
                {t(`narratorContext.roles.${message.role}`)}
              </p>
              <p data-user-text className="mt-1 text-sm leading-6 whitespace-pre-wrap break-words text-ink">
                {message.content}
              </p>
            </li>
          ))}
        </ol>
      </section>
    </>
  );
}

/** The story's generation settings as the next turn uses them. */
function GenerationSummary({ generation }: { generation: NarratorContext["generation"] }) {
  const { t } = useTranslation("stories", { keyPrefix: "narratorContext.generation" });
  const ratio = t(`ratios.${RATIO_KEYS[generation.aspect_ratio]}`);
  // The model's name is an identifier, shown as it is (not interface text).
  const rows: [string, string, boolean?][] = [
    [t("model"), generation.text_model, true],
    [
      t("outputLength"),
      t("outputLengthValue", {
        length: t(`lengths.${generation.output_length}`),
        max: generation.max_tokens,
      }),
    ],
    [
      t("randomness"),
      formatNumber(generation.temperature, { minimumFractionDigits: 2, maximumFractionDigits: 2 }),
    ],
    [t("depth"), t("depthValue", { count: generation.authors_note_depth })],
    [t("input"), t(`inputModes.${generation.input_mode}`)],
    [
      t("scenes"),
      generation.art_style ? t("scenesWithStyle", { ratio, style: generation.art_style }) : ratio,
    ],
  ];
  return (
    <section aria-label={t("title")}>
      <h3 className="text-sm font-semibold text-ink">{t("title")}</h3>
      <dl className="mt-2 divide-y divide-line rounded-xl border border-line text-sm">
        {rows.map(([name, value, asIs]) => (
          <div key={name} className="flex justify-between gap-3 px-3 py-2">
            <dt className="text-ink-muted">{name}</dt>
            <dd
              data-user-text={asIs ? "" : undefined}
              className="min-w-0 break-words text-end font-semibold text-ink"
            >
              {value}
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
