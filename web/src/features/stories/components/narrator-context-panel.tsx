// "What the narrator sees": the exact messages the next turn would send the narrator, with the tokens each
// part takes out of the budget, and the Story Cards it wakes with why each fired (a trigger and where it
// was found, or always on) and which were left out to keep within the lore budget; the older exchanges it
// recalls, each with why (recalled-exchanges.tsx). It follows the composer (issue 46): the turn's kind is the
// composer's mode (Chat, Image or Video) and its next message the composer's unsent words, as they change;
// both can be tried otherwise here. Without a next message, it shows what Continue would send.

import type { ChatMode } from "@storyverse/contract/chat";
import {
  ASPECT_RATIO_LABELS,
  INPUT_MODE_LABELS,
  type InputMode,
  OUTPUT_LENGTH_LABELS,
} from "@storyverse/contract/generation-settings";
import type { NarratorContext } from "@storyverse/contract/story-craft";
import { useQuery } from "@tanstack/react-query";
import { Eye } from "lucide-react";
import { useEffect, useState } from "react";
import { Button } from "../../../components/button";
import { Modal } from "../../../components/modal";
import { FieldLabel, inputClasses } from "../../../components/text-field";
import { errorMessage } from "../../../lib/api-errors";
import { narratorContextQueryOptions } from "../api/narrator-context";
import { RecalledExchanges } from "./recalled-exchanges";

const PART_NAMES: Record<NarratorContext["parts"][number]["part"], string> = {
  instructions: "Narrator instructions",
  memory: "Memory",
  cards: "Story Cards",
  recall: "Recalled from earlier",
  summary: "The story so far (summary)",
  history: "Recent messages",
  authors_note: "Author's Note",
  post_history_instructions: "Post-history instructions",
  prompt: "Your next message",
};

const KIND_NAMES: Record<string, string> = {
  character: "Character",
  place: "Place",
  thing: "Thing",
  other: "Other",
};

/** How long the composer's words rest before the preview asks for them. */
const PREVIEW_PAUSE_MS = 400;

const ROLE_NAMES = { system: "Instructions", user: "Player", assistant: "Narrator" } as const;

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
  return (
    <Modal
      docked={docked}
      open={storyId !== null}
      onOpenChange={(open) => (open ? undefined : onClose())}
      title="What the narrator sees"
      description="Exactly what the next turn sends the narrator, and what each part costs of its budget."
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
          <FieldLabel htmlFor="narrator-context-prompt" aside="Optional">
            Next message
          </FieldLabel>
          <input
            id="narrator-context-prompt"
            value={draft}
            onChange={(event) => setDraft(event.target.value)}
            placeholder="Empty: what Continue would send"
            className={`${inputClasses} mt-2`}
          />
        </div>
        <div>
          <FieldLabel htmlFor="narrator-context-mode">Turn</FieldLabel>
          <select
            id="narrator-context-mode"
            value={mode}
            onChange={(event) => setMode(event.target.value as ChatMode)}
            className={`${inputClasses} mt-2 w-auto`}
          >
            <option value="image">Image</option>
            <option value="video">Video</option>
            <option value="chat">Chat</option>
          </select>
        </div>
        <Button type="submit" size="sm" variant="secondary">
          Show
        </Button>
      </form>
      {context.isPending ? (
        <p role="status" className="text-sm text-ink-muted">
          Loading…
        </p>
      ) : context.error ? (
        <p role="alert" className="text-sm text-danger">
          {errorMessage(context.error)}
        </p>
      ) : (
        <ContextBody context={context.data} mode={mode} storyId={storyId} />
      )}
    </div>
  );
}

const CUT_NAMES: Record<NarratorContext["cut_to_fit"][number]["part"], string> = {
  context: "Story context",
  instructions: "Narrator instructions",
  post_history_instructions: "Post-history instructions",
  memory: "Memory",
};

/** Long texts the story keeps whole but this turn sends only in part (or not at all) to fit the budget. */
function CutToFit({ cuts }: { cuts: NarratorContext["cut_to_fit"] }) {
  if (cuts.length === 0) return null;
  return (
    <ul aria-label="Left out to fit the budget" className="mt-2 space-y-1 text-sm text-ink-muted">
      {cuts.map((cut) => (
        <li key={cut.part} className="rounded-xl border border-line bg-surface-2 px-3 py-2">
          <span className="font-semibold text-ink">{CUT_NAMES[cut.part]}:</span>{" "}
          {cut.kept_characters === 0
            ? `left out (${cut.total_characters.toLocaleString("en")} characters)`
            : `${cut.kept_characters.toLocaleString("en")} of ${cut.total_characters.toLocaleString("en")} characters sent; the rest is left out`}{" "}
          to fit the budget. The story keeps it whole.
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
  return (
    <>
      <section aria-label="Token budget">
        <p className="text-sm font-semibold text-ink">
          {context.total_tokens.toLocaleString("en")} of {context.budget_tokens.toLocaleString("en")} tokens
        </p>
        <ul className="mt-2 divide-y divide-line rounded-xl border border-line text-sm">
          {context.parts.map(({ part, tokens }) => (
            <li key={part} className="flex justify-between gap-3 px-3 py-2">
              <span className="text-ink-muted">
                {PART_NAMES[part]}
                {part === "history" && context.dropped_messages > 0
                  ? ` (${context.dropped_messages} older left out)`
                  : ""}
              </span>
              <span className="font-semibold text-ink tabular-nums">
                {tokens.toLocaleString("en")} tokens
              </span>
            </li>
          ))}
        </ul>
        <CutToFit cuts={context.cut_to_fit} />
      </section>
      <GenerationSummary generation={context.generation} />
      <section aria-label="Active Story Cards">
        <h3 className="text-sm font-semibold text-ink">Active Story Cards</h3>
        {context.active_cards.length === 0 ? (
          <p className="mt-1 text-sm text-ink-muted">
            None: no card's trigger word is in the newest messages.
          </p>
        ) : (
          <ul className="mt-2 divide-y divide-line rounded-xl border border-line text-sm">
            {context.active_cards.map((card) => {
              const leftOut = card.dropped_for_budget || !card.in_context;
              return (
                <li key={card.id} aria-label={card.name} className="px-3 py-2">
                  <div className="flex flex-wrap items-baseline gap-x-2 gap-y-1">
                    <span className={`font-semibold ${leftOut ? "text-ink-muted" : "text-ink"}`}>
                      {card.name}
                    </span>
                    <span className="text-xs text-ink-muted">{KIND_NAMES[card.kind] ?? card.kind}</span>
                    {leftOut ? (
                      <span className="rounded-full border border-line px-2 py-0.5 text-xs font-medium text-ink-muted">
                        {card.dropped_for_budget ? "Left out: lore budget full" : "Left out: no room"}
                      </span>
                    ) : null}
                  </div>
                  <p className="mt-0.5 break-words text-ink-muted">
                    <span className="font-medium">Why:</span> {card.because}
                  </p>
                </li>
              );
            })}
          </ul>
        )}
      </section>
      <RecalledExchanges storyId={storyId} recalled={context.recalled} />
      <section aria-label="Image references">
        <h3 className="text-sm font-semibold text-ink">Image references</h3>
        {context.image_references.length === 0 ? (
          <p className="mt-1 text-sm text-ink-muted">
            {mode === "chat"
              ? "A chat turn paints no scene."
              : "The next scene is painted from the words alone."}
          </p>
        ) : (
          <ol className="mt-2 flex flex-wrap gap-2">
            {context.image_references.map((reference) =>
              reference.source === "selected" ? (
                <li
                  key={`selected-${reference.position}`}
                  className="grid size-16 place-items-center rounded-xl border border-line bg-surface-2 px-1 text-center text-xs text-ink-muted"
                >
                  Selected image {reference.position + 1}
                </li>
              ) : (
                <li
                  key={reference.source === "persona" ? "persona" : reference.card_id}
                  className="w-16 text-center"
                >
                  <img
                    src={reference.url}
                    alt={`Portrait of ${reference.name}`}
                    className="size-16 rounded-xl border border-line object-cover"
                  />
                  <span className="mt-1 block truncate text-xs text-ink-muted">{reference.name}</span>
                </li>
              ),
            )}
          </ol>
        )}
      </section>
      <section aria-label="Messages sent">
        <h3 className="text-sm font-semibold text-ink">Messages sent</h3>
        <ol className="mt-2 space-y-2">
          {context.messages.map((message, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: the list is replaced whole, never reordered
            <li key={index} className="rounded-xl border border-line bg-surface-2 px-3 py-2">
              <p className="text-xs font-semibold tracking-wide text-ink-muted uppercase">
                {ROLE_NAMES[message.role]}
              </p>
              <p className="mt-1 text-sm leading-6 whitespace-pre-wrap break-words text-ink">
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
  const rows: [string, string][] = [
    ["Model", generation.text_model],
    [
      "Output length",
      `${OUTPUT_LENGTH_LABELS[generation.output_length]} (up to ${generation.max_tokens.toLocaleString("en")} tokens)`,
    ],
    ["Randomness", generation.temperature.toFixed(2)],
    [
      "Author's Note depth",
      generation.authors_note_depth === 1
        ? "1 (just before your message)"
        : `${generation.authors_note_depth} messages from the end`,
    ],
    ["Input", INPUT_MODE_LABELS[generation.input_mode]],
    [
      "Scenes",
      `${ASPECT_RATIO_LABELS[generation.aspect_ratio]}${generation.art_style ? `, ${generation.art_style}` : ""}`,
    ],
  ];
  return (
    <section aria-label="Generation">
      <h3 className="text-sm font-semibold text-ink">Generation</h3>
      <dl className="mt-2 divide-y divide-line rounded-xl border border-line text-sm">
        {rows.map(([name, value]) => (
          <div key={name} className="flex justify-between gap-3 px-3 py-2">
            <dt className="text-ink-muted">{name}</dt>
            <dd className="min-w-0 break-words text-right font-semibold text-ink">{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
