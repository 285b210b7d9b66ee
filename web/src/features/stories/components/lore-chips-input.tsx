// A list of words typed as chips: Enter or a comma adds what was typed, each chip has its remove button,
// duplicates (any case) are skipped. Used for a Story Card's triggers and its secondary keys. The word
// still being typed is the caller's, so Save can take it without Enter.
import { isRegexTrigger } from "@storyverse/contract/story-cards";
import { X } from "lucide-react";
import { useTranslation } from "react-i18next";
import { Button } from "../../../components/button";
import { inputClasses } from "../../../components/text-field";

interface ChipsInputProps {
  id: string;
  /** The chips' list name, e.g. "Trigger words". */
  listLabel: string;
  /**
   * A chip's remove button's label: a function of the word (so a language may put it anywhere in the sentence,
   * e.g. `(word) => t("removeTrigger", { word })`), or the words said before it, e.g. "Remove trigger".
   */
  removeLabel: string | ((value: string) => string);
  values: string[];
  onChange: (values: string[]) => void;
  draft: string;
  onDraftChange: (draft: string) => void;
  max: number;
  maxLength: number;
  placeholder: string;
  describedBy?: string;
  /** What to say when a word is too long, and when there is no room for one more. */
  tooLongMessage: string;
  tooManyMessage: string;
  /** A word too long or one too many: the message to show (null clears it). */
  onError: (message: string | null) => void;
}

/** A word being written as /pattern/flags (commas inside it belong to the pattern). */
const isPattern = (raw: string) => raw.trim().startsWith("/");

export function ChipsInput({
  id,
  listLabel,
  removeLabel,
  values,
  onChange,
  draft,
  onDraftChange,
  max,
  maxLength,
  placeholder,
  describedBy,
  tooLongMessage,
  tooManyMessage,
  onError,
}: ChipsInputProps) {
  const { t } = useTranslation("story-tools");
  const removeLabelOf = (value: string) =>
    typeof removeLabel === "function" ? removeLabel(value) : `${removeLabel} ${value}`;
  const add = (raw: string) => {
    const words = isPattern(raw)
      ? [raw.trim().replace(/,$/, "")]
      : raw
          .split(",")
          .map((word) => word.trim())
          .filter(Boolean);
    if (words.length === 0) return;
    onError(null);
    const next = [...values];
    for (const word of words) {
      if (word.length > maxLength) {
        onError(tooLongMessage);
        return;
      }
      if (next.some((t) => t.toLowerCase() === word.toLowerCase())) continue;
      if (next.length >= max) {
        onError(tooManyMessage);
        break;
      }
      next.push(word);
    }
    onChange(next);
    onDraftChange("");
  };

  return (
    <>
      {values.length ? (
        <ul aria-label={listLabel} className="mt-2 flex flex-wrap gap-1.5">
          {values.map((value) => (
            <li
              key={value}
              className="inline-flex max-w-full items-center gap-1 rounded-full bg-accent-soft py-0.5 pe-1 ps-3 text-sm text-accent-ink"
            >
              <span data-user-text className="min-w-0 break-all">
                {value}
              </span>
              <button
                type="button"
                aria-label={removeLabelOf(value)}
                onClick={() => onChange(values.filter((t) => t !== value))}
                className="grid size-6 shrink-0 place-items-center rounded-full hover:bg-black/10 focus-visible:outline-2"
              >
                <X aria-hidden="true" className="size-3.5" />
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <div className="mt-2 flex gap-2">
        <input
          id={id}
          value={draft}
          onChange={(event) => {
            const value = event.target.value;
            // A comma ends a word, but inside a /pattern/ only once the pattern is closed ({2,3} has one).
            const ends =
              value.endsWith(",") && (!isPattern(value) || isRegexTrigger(value.trim().slice(0, -1)));
            if (ends) add(value);
            else onDraftChange(value);
          }}
          onKeyDown={(event) => {
            if (event.key === "Enter") {
              event.preventDefault();
              add(draft);
            }
          }}
          maxLength={maxLength}
          placeholder={placeholder}
          aria-describedby={describedBy}
          className={inputClasses}
        />
        <Button variant="secondary" onClick={() => add(draft)}>
          {t("chipsInput.add")}
        </Button>
      </div>
    </>
  );
}

/** The chips with the word still being typed, when there is room: what Save sends. */
export function withDraft(values: string[], draft: string, max: number): string[] {
  const pending = draft.trim();
  return pending && values.length < max && !values.includes(pending) ? [...values, pending] : values;
}
