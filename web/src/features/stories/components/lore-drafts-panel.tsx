// Living lore's drafts: the names the narration brought up that have no Story Card, each offered as a draft
// card the player accepts as it is, edits then accepts, or dismisses (a dismissed name is never offered again).
// A side panel beside the story, like Story Cards (decision 0106).

import type { LoreSuggestion } from "@storyverse/contract/lore";
import { CARD_KINDS, type CardKind } from "@storyverse/contract/story-cards";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import type { ParseKeys } from "i18next";
import { Sparkles } from "lucide-react";
import { useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "../../../components/button";
import { Modal } from "../../../components/modal";
import { FieldLabel, inputClasses, textareaClasses } from "../../../components/text-field";
import { translateServerMessage } from "../../../i18n/server-messages";
import { errorMessage } from "../../../lib/api-errors";
import {
  acceptLoreSuggestion,
  dismissLoreSuggestion,
  loreSuggestionsKey,
  loreSuggestionsQueryOptions,
} from "../api/lore-suggestions";
import { storyCardsKey } from "../api/story-cards";

/** Each card kind's name: keys of the story-tools namespace. */
const KIND_NAMES: Record<CardKind, ParseKeys<"story-tools">> = {
  character: "cardKinds.character",
  place: "cardKinds.place",
  thing: "cardKinds.thing",
  other: "cardKinds.other",
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
  const { t } = useTranslation("story-tools");
  return (
    <Modal
      docked={docked}
      open={storyId !== null}
      onOpenChange={(open) => (open ? undefined : onClose())}
      title={t("loreDrafts.title")}
      description={t("loreDrafts.description")}
      icon={<Sparkles className="size-5" />}
    >
      {storyId ? <DraftList storyId={storyId} /> : null}
    </Modal>
  );
}

function DraftList({ storyId }: { storyId: string }) {
  const { t } = useTranslation("story-tools");
  const drafts = useQuery(loreSuggestionsQueryOptions(storyId));
  if (drafts.isPending) {
    return (
      <p role="status" className="text-sm text-ink-muted">
        {t("actions.loading")}
      </p>
    );
  }
  if (drafts.error) {
    return (
      <p role="alert" data-server-text className="text-sm text-danger">
        {translateServerMessage(errorMessage(drafts.error))}
      </p>
    );
  }
  if (drafts.data.length === 0) {
    return <p className="text-sm text-ink-muted">{t("loreDrafts.empty")}</p>;
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
  const { t } = useTranslation("story-tools");
  const queryClient = useQueryClient();
  const id = useId();
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState(draft.name);
  const [kind, setKind] = useState<CardKind>(draft.kind);
  const [triggers, setTriggers] = useState(draft.triggers.join(", "));
  const [description, setDescription] = useState(draft.description);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const settle = async (
    action: () => Promise<unknown>,
    failed: "loreDrafts.acceptFailed" | "loreDrafts.dismissFailed",
  ) => {
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
      setError(t(failed, { reason: translateServerMessage(errorMessage(failure)) }));
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
      "loreDrafts.acceptFailed",
    );
  const dismiss = () => settle(() => dismissLoreSuggestion(storyId, draft.id), "loreDrafts.dismissFailed");

  return (
    <li aria-label={draft.name} className="rounded-xl border border-line px-3 py-3 text-sm">
      {editing ? (
        <div className="space-y-3">
          <div>
            <FieldLabel htmlFor={`${id}-name`}>{t("actions.name")}</FieldLabel>
            <input
              id={`${id}-name`}
              value={name}
              onChange={(event) => setName(event.target.value)}
              className={`${inputClasses} mt-1`}
            />
          </div>
          <div>
            <FieldLabel htmlFor={`${id}-kind`}>{t("loreDrafts.kind")}</FieldLabel>
            <select
              id={`${id}-kind`}
              value={kind}
              onChange={(event) => setKind(event.target.value as CardKind)}
              className={`${inputClasses} mt-1`}
            >
              {CARD_KINDS.map((value) => (
                <option key={value} value={value}>
                  {t(KIND_NAMES[value])}
                </option>
              ))}
            </select>
          </div>
          <div>
            <FieldLabel htmlFor={`${id}-triggers`} aside={t("loreDrafts.separatedByCommas")}>
              {t("loreDrafts.triggerWords")}
            </FieldLabel>
            <input
              id={`${id}-triggers`}
              value={triggers}
              onChange={(event) => setTriggers(event.target.value)}
              className={`${inputClasses} mt-1`}
            />
          </div>
          <div>
            <FieldLabel htmlFor={`${id}-description`}>{t("loreDrafts.descriptionLabel")}</FieldLabel>
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
            <span data-user-text className="font-semibold text-ink">
              {draft.name}
            </span>
            <span className="text-xs text-ink-muted">{t(KIND_NAMES[draft.kind])}</span>
          </div>
          {draft.description ? (
            <p data-user-text className="mt-1 break-words text-ink-muted">
              {draft.description}
            </p>
          ) : null}
        </>
      )}
      {error ? (
        <p role="alert" data-server-text className="mt-2 text-danger">
          {error}
        </p>
      ) : null}
      <div className="mt-3 flex flex-wrap gap-2">
        <Button size="sm" onClick={() => void accept()} disabled={busy}>
          {editing ? t("loreDrafts.saveAsCard") : t("loreDrafts.accept")}
        </Button>
        {editing ? null : (
          <Button size="sm" variant="secondary" onClick={() => setEditing(true)} disabled={busy}>
            {t("loreDrafts.edit")}
          </Button>
        )}
        <Button size="sm" variant="ghost" onClick={() => void dismiss()} disabled={busy}>
          {t("loreDrafts.dismiss")}
        </Button>
      </div>
    </li>
  );
}
