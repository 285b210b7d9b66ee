// Living lore's drafts: the names the narration brought up that have no Story Card, each offered as a draft
// card the player accepts as it is, edits then accepts, or dismisses (a dismissed name is never offered again).
// A side panel beside the story, like Story Cards (decision 0106).

import type { LoreSuggestion } from "@storyverse/contract/lore";
import { CARD_KINDS, type CardKind } from "@storyverse/contract/story-cards";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Sparkles } from "lucide-react";
import { useId, useState } from "react";
import { Button } from "../../../components/button";
import { Modal } from "../../../components/modal";
import { FieldLabel, inputClasses, textareaClasses } from "../../../components/text-field";
import { errorMessage } from "../../../lib/api-errors";
import {
  acceptLoreSuggestion,
  dismissLoreSuggestion,
  loreSuggestionsKey,
  loreSuggestionsQueryOptions,
} from "../api/lore-suggestions";
import { storyCardsKey } from "../api/story-cards";

const KIND_NAMES: Record<CardKind, string> = {
  character: "Character",
  place: "Place",
  thing: "Thing",
  other: "Other",
};

export function LoreDraftsPanel({
  storyId,
  docked = false,
  onClose,
}: {
  storyId: string | null;
  docked?: boolean;
  onClose: () => void;
}) {
  return (
    <Modal
      docked={docked}
      open={storyId !== null}
      onOpenChange={(open) => (open ? undefined : onClose())}
      title="New in the story"
      description="Names the story brought up that have no Story Card yet. Accept a draft to make it a card, or dismiss it."
      icon={<Sparkles className="size-5" />}
    >
      {storyId ? <DraftList storyId={storyId} /> : null}
    </Modal>
  );
}

function DraftList({ storyId }: { storyId: string }) {
  const drafts = useQuery(loreSuggestionsQueryOptions(storyId));
  if (drafts.isPending) {
    return (
      <p role="status" className="text-sm text-ink-muted">
        Loading…
      </p>
    );
  }
  if (drafts.error) {
    return (
      <p role="alert" className="text-sm text-danger">
        {errorMessage(drafts.error)}
      </p>
    );
  }
  if (drafts.data.length === 0) {
    return <p className="text-sm text-ink-muted">Nothing new: every name the story repeats has a card.</p>;
  }
  return (
    <ul className="space-y-3">
      {drafts.data.map((draft) => (
        <Draft key={draft.id} storyId={storyId} draft={draft} />
      ))}
    </ul>
  );
}

function Draft({ storyId, draft }: { storyId: string; draft: LoreSuggestion }) {
  const queryClient = useQueryClient();
  const id = useId();
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState(draft.name);
  const [kind, setKind] = useState<CardKind>(draft.kind);
  const [triggers, setTriggers] = useState(draft.triggers.join(", "));
  const [description, setDescription] = useState(draft.description);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const settle = async (action: () => Promise<unknown>, failed: string) => {
    setBusy(true);
    setError(null);
    try {
      await action();
      queryClient.setQueryData<LoreSuggestion[]>(loreSuggestionsKey(storyId), (list) =>
        list?.filter((item) => item.id !== draft.id),
      );
      void queryClient.invalidateQueries({ queryKey: loreSuggestionsKey(storyId) });
      void queryClient.invalidateQueries({ queryKey: storyCardsKey(storyId) });
    } catch (failure) {
      setError(`${failed}: ${errorMessage(failure)}`);
      setBusy(false);
    }
  };

  const accept = () =>
    settle(
      () =>
        acceptLoreSuggestion(
          storyId,
          draft.id,
          editing
            ? {
                name: name.trim(),
                kind,
                triggers: triggers
                  .split(",")
                  .map((word) => word.trim())
                  .filter(Boolean),
                description,
              }
            : {},
        ),
      "Failed to make the card",
    );
  const dismiss = () => settle(() => dismissLoreSuggestion(storyId, draft.id), "Failed to dismiss it");

  return (
    <li aria-label={draft.name} className="rounded-xl border border-line px-3 py-3 text-sm">
      {editing ? (
        <div className="space-y-3">
          <div>
            <FieldLabel htmlFor={`${id}-name`}>Name</FieldLabel>
            <input
              id={`${id}-name`}
              value={name}
              onChange={(event) => setName(event.target.value)}
              className={`${inputClasses} mt-1`}
            />
          </div>
          <div>
            <FieldLabel htmlFor={`${id}-kind`}>Kind</FieldLabel>
            <select
              id={`${id}-kind`}
              value={kind}
              onChange={(event) => setKind(event.target.value as CardKind)}
              className={`${inputClasses} mt-1`}
            >
              {CARD_KINDS.map((value) => (
                <option key={value} value={value}>
                  {KIND_NAMES[value]}
                </option>
              ))}
            </select>
          </div>
          <div>
            <FieldLabel htmlFor={`${id}-triggers`} aside="Separated by commas">
              Trigger words
            </FieldLabel>
            <input
              id={`${id}-triggers`}
              value={triggers}
              onChange={(event) => setTriggers(event.target.value)}
              className={`${inputClasses} mt-1`}
            />
          </div>
          <div>
            <FieldLabel htmlFor={`${id}-description`}>Description</FieldLabel>
            <textarea
              id={`${id}-description`}
              value={description}
              onChange={(event) => setDescription(event.target.value)}
              rows={3}
              className={`${textareaClasses} mt-1`}
            />
          </div>
        </div>
      ) : (
        <>
          <div className="flex flex-wrap items-baseline gap-x-2">
            <span className="font-semibold text-ink">{draft.name}</span>
            <span className="text-xs text-ink-muted">{KIND_NAMES[draft.kind]}</span>
          </div>
          {draft.description ? <p className="mt-1 break-words text-ink-muted">{draft.description}</p> : null}
        </>
      )}
      {error ? (
        <p role="alert" className="mt-2 text-danger">
          {error}
        </p>
      ) : null}
      <div className="mt-3 flex flex-wrap gap-2">
        <Button size="sm" onClick={() => void accept()} disabled={busy}>
          {editing ? "Save as card" : "Accept"}
        </Button>
        {editing ? null : (
          <Button size="sm" variant="secondary" onClick={() => setEditing(true)} disabled={busy}>
            Edit
          </Button>
        )}
        <Button size="sm" variant="ghost" onClick={() => void dismiss()} disabled={busy}>
          Dismiss
        </Button>
      </div>
    </li>
  );
}
