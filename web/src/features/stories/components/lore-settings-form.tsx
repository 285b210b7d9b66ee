// The story's lore settings, from the Story Cards dialog: how much of the narrator's context the cards may
// take, how many recent messages are searched for triggers, and the narrator instructions that replace the
// defaults for this story (a character card's system prompt and post-history instructions land here;
// {{original}} keeps the default in place). Only what changed is sent; nothing changed, no call.
import {
  LORE_BUDGET_PERCENT_MAX,
  LORE_BUDGET_PERCENT_MIN,
  LORE_SCAN_DEPTH_MAX,
  NARRATOR_INSTRUCTIONS_MAX_LENGTH,
  POST_HISTORY_INSTRUCTIONS_MAX_LENGTH,
  type StoryLoreSettingsUpdate,
} from "@storyverse/contract/story-craft";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { Trans, useTranslation } from "react-i18next";
import { Button } from "../../../components/button";
import { FormAlert } from "../../../components/form-alert";
import { ModalActions } from "../../../components/modal";
import { FieldLabel, inputClasses, textareaClasses } from "../../../components/text-field";
import { translateServerMessage } from "../../../i18n/server-messages";
import { errorMessage } from "../../../lib/api-errors";
import {
  type LoreSettingsState,
  loreSettingsKey,
  loreSettingsQueryOptions,
  saveLoreSettings,
} from "../api/lore-settings";

const CODE = <code className="rounded bg-surface-2 px-1 text-ink" />;

export function LoreSettingsForm({
  storyId,
  onDone,
}: {
  storyId: string;
  /** Back to the list; `saved` when something was saved. */
  onDone: (saved: boolean) => void;
}) {
  const { t } = useTranslation("story-tools");
  const stored = useQuery(loreSettingsQueryOptions(storyId));
  if (stored.isPending) return <p className="text-sm text-ink-muted">{t("actions.loading")}</p>;
  if (stored.error) {
    return (
      <div className="space-y-4">
        <FormAlert message={errorMessage(stored.error)} />
        <ModalActions>
          <Button variant="secondary" onClick={() => onDone(false)}>
            {t("loreSettings.back")}
          </Button>
        </ModalActions>
      </div>
    );
  }
  return <SettingsFields storyId={storyId} current={stored.data} onDone={onDone} />;
}

/** A whole number from min to max as typed, or null. */
function wholeNumber(typed: string, min: number, max: number): number | null {
  if (!/^\d{1,3}$/.test(typed.trim())) return null;
  const value = Number(typed.trim());
  return value >= min && value <= max ? value : null;
}

function SettingsFields({
  storyId,
  current,
  onDone,
}: {
  storyId: string;
  current: LoreSettingsState;
  onDone: (saved: boolean) => void;
}) {
  const { t } = useTranslation("story-tools");
  const queryClient = useQueryClient();
  const id = useId();
  const [budget, setBudget] = useState(String(current.lore_budget_percent));
  const [depth, setDepth] = useState(String(current.lore_scan_depth));
  const [instructions, setInstructions] = useState(current.narrator_instructions);
  const [postHistory, setPostHistory] = useState(current.post_history_instructions);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  const save = async () => {
    const budgetValue = wholeNumber(budget, LORE_BUDGET_PERCENT_MIN, LORE_BUDGET_PERCENT_MAX);
    if (budgetValue === null) {
      return setError(
        t("loreSettings.budgetRange", { min: LORE_BUDGET_PERCENT_MIN, max: LORE_BUDGET_PERCENT_MAX }),
      );
    }
    const depthValue = wholeNumber(depth, 0, LORE_SCAN_DEPTH_MAX);
    if (depthValue === null) {
      return setError(t("loreSettings.depthRange", { max: LORE_SCAN_DEPTH_MAX }));
    }
    const changes: StoryLoreSettingsUpdate = {};
    if (budgetValue !== current.lore_budget_percent) changes.lore_budget_percent = budgetValue;
    if (depthValue !== current.lore_scan_depth) changes.lore_scan_depth = depthValue;
    if (instructions !== current.narrator_instructions) changes.narrator_instructions = instructions;
    if (postHistory !== current.post_history_instructions) changes.post_history_instructions = postHistory;
    if (Object.keys(changes).length === 0) return onDone(false);
    setError(null);
    setSaving(true);
    try {
      queryClient.setQueryData(loreSettingsKey(storyId), await saveLoreSettings(storyId, changes));
      onDone(true);
    } catch (failure) {
      setError(t("loreSettings.saveFailed", { reason: translateServerMessage(errorMessage(failure)) }));
      setSaving(false);
    }
  };

  return (
    <form
      aria-labelledby={`${id}-title`}
      className="space-y-5"
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
    >
      <h3 id={`${id}-title`} className="font-semibold text-ink">
        {t("loreSettings.title")}
      </h3>
      {current.creator_notes ? (
        <section
          aria-label={t("loreSettings.creatorNotes")}
          className="rounded-xl border border-line bg-surface-2 px-4 py-3 text-sm text-ink"
        >
          <p className="font-medium">
            {current.character_name
              ? t("loreSettings.creatorNotesFor", { name: current.character_name })
              : t("loreSettings.creatorNotes")}
          </p>
          <p
            data-user-text
            className="mt-1 max-h-40 overflow-y-auto whitespace-pre-wrap break-words text-ink-muted"
          >
            {current.creator_notes}
          </p>
          <p className="mt-2 text-xs text-ink-muted">{t("loreSettings.creatorNotesHint")}</p>
        </section>
      ) : null}
      <div className="grid gap-4 sm:grid-cols-2">
        <div>
          <FieldLabel
            htmlFor={`${id}-budget`}
            aside={`${LORE_BUDGET_PERCENT_MIN}–${LORE_BUDGET_PERCENT_MAX} %`}
          >
            {t("loreSettings.budget")}
          </FieldLabel>
          <div className="relative mt-2">
            <input
              id={`${id}-budget`}
              inputMode="numeric"
              value={budget}
              onChange={(event) => setBudget(event.target.value)}
              aria-describedby={`${id}-budget-hint`}
              className={`${inputClasses} pe-10`}
            />
            <span
              aria-hidden="true"
              className="pointer-events-none absolute top-1/2 inset-e-4 -translate-y-1/2 text-ink-muted"
            >
              %
            </span>
          </div>
          <p id={`${id}-budget-hint`} className="mt-2 text-sm text-ink-muted">
            {t("loreSettings.budgetHint")}
          </p>
        </div>
        <div>
          <FieldLabel htmlFor={`${id}-depth`} aside={`0–${LORE_SCAN_DEPTH_MAX}`}>
            {t("loreSettings.scanDepth")}
          </FieldLabel>
          <input
            id={`${id}-depth`}
            inputMode="numeric"
            value={depth}
            onChange={(event) => setDepth(event.target.value)}
            aria-describedby={`${id}-depth-hint`}
            className={`${inputClasses} mt-2`}
          />
          <p id={`${id}-depth-hint`} className="mt-2 text-sm text-ink-muted">
            {t("loreSettings.scanDepthHint")}
          </p>
        </div>
      </div>
      <div>
        <FieldLabel
          htmlFor={`${id}-instructions`}
          counter={`${instructions.length}/${NARRATOR_INSTRUCTIONS_MAX_LENGTH}`}
        >
          {t("loreSettings.instructions")}
        </FieldLabel>
        <textarea
          id={`${id}-instructions`}
          value={instructions}
          onChange={(event) => setInstructions(event.target.value)}
          maxLength={NARRATOR_INSTRUCTIONS_MAX_LENGTH}
          rows={4}
          placeholder={t("loreSettings.instructionsPlaceholder")}
          aria-describedby={`${id}-instructions-hint`}
          className={`${textareaClasses} mt-2`}
        />
        <p id={`${id}-instructions-hint`} className="mt-2 text-sm text-ink-muted">
          <Trans
            t={t}
            i18nKey="loreSettings.instructionsHint"
            values={{ macro: "{{original}}" }}
            components={{ code: CODE }}
          />
        </p>
      </div>
      <div>
        <FieldLabel
          htmlFor={`${id}-post-history`}
          counter={`${postHistory.length}/${POST_HISTORY_INSTRUCTIONS_MAX_LENGTH}`}
        >
          {t("loreSettings.postHistory")}
        </FieldLabel>
        <textarea
          id={`${id}-post-history`}
          value={postHistory}
          onChange={(event) => setPostHistory(event.target.value)}
          maxLength={POST_HISTORY_INSTRUCTIONS_MAX_LENGTH}
          rows={3}
          placeholder={t("loreSettings.postHistoryPlaceholder")}
          aria-describedby={`${id}-post-history-hint`}
          className={`${textareaClasses} mt-2`}
        />
        <p id={`${id}-post-history-hint`} className="mt-2 text-sm text-ink-muted">
          <Trans
            t={t}
            i18nKey="loreSettings.postHistoryHint"
            values={{ macro: "{{original}}" }}
            components={{ code: CODE }}
          />
        </p>
      </div>
      <FormAlert message={error} />
      <ModalActions>
        <Button variant="secondary" onClick={() => onDone(false)} disabled={saving}>
          {t("actions.cancel")}
        </Button>
        <Button type="submit" loading={saving} loadingText={t("loreSettings.saving")}>
          {t("loreSettings.save")}
        </Button>
      </ModalActions>
    </form>
  );
}
