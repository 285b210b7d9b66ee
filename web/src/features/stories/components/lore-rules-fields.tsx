// A Story Card's lore rules, tucked under "Advanced lore rules" so a simple card stays simple: always on,
// secondary keys with how they combine with the triggers (SillyTavern's selective logic), case-sensitive
// triggers, insertion order and priority. Imported lorebooks fill these in; most players never open it.
import {
  CARD_ORDER_MAX,
  CARD_TRIGGER_MAX_LENGTH,
  CARD_TRIGGERS_MAX,
  type CreateCardRequest,
  DEFAULT_INSERTION_ORDER,
  DEFAULT_PRIORITY,
  type SelectiveLogic,
  type StoryCard,
} from "@storyverse/contract/story-cards";
import type { ParseKeys } from "i18next";
import { ChevronDown } from "lucide-react";
import { type Dispatch, type SetStateAction, useState } from "react";
import { Trans, useTranslation } from "react-i18next";
import { FieldLabel, inputClasses } from "../../../components/text-field";
import { i18n } from "../../../i18n/i18n";
import { ChipsInput } from "./lore-chips-input";

/** How the secondary keys combine with a trigger, worded to go between "Wake on a trigger" and "these:". */
const LOGIC_NAMES: [SelectiveLogic, ParseKeys<"story-tools">][] = [
  ["and_any", "loreRules.logicAndAny"],
  ["and_all", "loreRules.logicAndAll"],
  ["not_any", "loreRules.logicNotAny"],
  ["not_all", "loreRules.logicNotAll"],
];

/** The rules as the editor holds them: the numbers as typed, checked on save. */
export interface LoreRules {
  constant: boolean;
  secondaryTriggers: string[];
  secondaryDraft: string;
  selectiveLogic: SelectiveLogic;
  caseSensitive: boolean;
  insertionOrder: string;
  priority: string;
}

const DEFAULTS = { insertionOrder: DEFAULT_INSERTION_ORDER, priority: DEFAULT_PRIORITY };

export function loreRulesOf(card: StoryCard | null): LoreRules {
  return {
    constant: card?.constant ?? false,
    secondaryTriggers: card?.secondary_triggers.slice(0, CARD_TRIGGERS_MAX) ?? [],
    secondaryDraft: "",
    selectiveLogic: card?.selective_logic ?? "and_any",
    caseSensitive: card?.case_sensitive ?? false,
    insertionOrder: String(card?.insertion_order ?? DEFAULTS.insertionOrder),
    priority: String(card?.priority ?? DEFAULTS.priority),
  };
}

/** Whether any rule differs from a plain card's: the disclosure then starts open, so nothing is hidden. */
function hasLoreRules(rules: LoreRules): boolean {
  return (
    rules.constant ||
    rules.secondaryTriggers.length > 0 ||
    rules.caseSensitive ||
    rules.insertionOrder !== String(DEFAULTS.insertionOrder) ||
    rules.priority !== String(DEFAULTS.priority)
  );
}

type LoreRulesFieldsRequest = Pick<
  CreateCardRequest,
  "constant" | "secondary_triggers" | "selective_logic" | "case_sensitive" | "insertion_order" | "priority"
>;

/** A whole number from 0 to CARD_ORDER_MAX as typed, or null. */
function orderValue(typed: string): number | null {
  const trimmed = typed.trim();
  if (!/^\d{1,7}$/.test(trimmed)) return null;
  const value = Number(trimmed);
  return value <= CARD_ORDER_MAX ? value : null;
}

/** The rules as the server takes them, or the message that says what to fix. */
export function loreRulesRequest(
  rules: LoreRules,
  secondaryTriggers: string[],
): { ok: true; fields: LoreRulesFieldsRequest } | { ok: false; error: string } {
  const insertionOrder = orderValue(rules.insertionOrder);
  const priority = orderValue(rules.priority);
  if (insertionOrder === null) {
    return { ok: false, error: i18n.t("story-tools:loreRules.insertionOrderRange", { max: CARD_ORDER_MAX }) };
  }
  if (priority === null) {
    return { ok: false, error: i18n.t("story-tools:loreRules.priorityRange", { max: CARD_ORDER_MAX }) };
  }
  return {
    ok: true,
    fields: {
      constant: rules.constant,
      secondary_triggers: secondaryTriggers,
      selective_logic: rules.selectiveLogic,
      case_sensitive: rules.caseSensitive,
      insertion_order: insertionOrder,
      priority,
    },
  };
}

export function LoreRulesFields({
  id,
  rules,
  onChange,
  onError,
}: {
  id: string;
  rules: LoreRules;
  /** The editor's state setter: chips change the keys and the draft in one go, so updates must compose. */
  onChange: Dispatch<SetStateAction<LoreRules>>;
  onError: (message: string | null) => void;
}) {
  const { t } = useTranslation("story-tools");
  const [open, setOpen] = useState(() => hasLoreRules(rules));
  const set = (changes: Partial<LoreRules>) => onChange((current) => ({ ...current, ...changes }));
  return (
    <div className="rounded-xl border border-line">
      <h3>
        <button
          type="button"
          aria-expanded={open}
          aria-controls={open ? `${id}-rules` : undefined}
          onClick={() => setOpen(!open)}
          className="flex w-full items-center justify-between gap-3 rounded-xl px-4 py-3 text-start text-sm font-medium text-ink hover:bg-surface-2 focus-visible:outline-2"
        >
          <span>
            {t("loreRules.advanced")}
            {!open && hasLoreRules(rules) ? (
              <span className="ms-2 text-xs font-normal text-ink-muted">{t("loreRules.inUse")}</span>
            ) : null}
          </span>
          <ChevronDown
            aria-hidden="true"
            className={`size-4 shrink-0 text-ink-muted transition-transform duration-200 motion-reduce:transition-none ${open ? "rotate-180" : ""}`}
          />
        </button>
      </h3>
      {open ? (
        <div id={`${id}-rules`} className="space-y-5 border-t border-line px-4 pt-4 pb-5">
          <p className="text-sm text-ink-muted">
            <Trans
              t={t}
              i18nKey="loreRules.regexHint"
              values={{ pattern: "/pattern/flags", example: "/drag(on|ons)/i" }}
              components={{ code: <code className="rounded bg-surface-2 px-1 text-ink" /> }}
            />
          </p>
          <div>
            <label className="flex items-center gap-2 text-sm font-medium text-ink">
              <input
                type="checkbox"
                checked={rules.constant}
                onChange={(event) => set({ constant: event.target.checked })}
                aria-describedby={`${id}-constant-hint`}
                className="size-4 accent-accent-500"
              />
              {t("loreRules.alwaysOn")}
            </label>
            <p id={`${id}-constant-hint`} className="mt-1 ms-6 text-sm text-ink-muted">
              {t("loreRules.alwaysOnHint")}
            </p>
          </div>
          <div>
            <FieldLabel
              htmlFor={`${id}-secondary`}
              counter={`${rules.secondaryTriggers.length}/${CARD_TRIGGERS_MAX}`}
            >
              {t("loreRules.secondaryKeys")}
            </FieldLabel>
            <div className="mt-2 flex flex-wrap items-center gap-2 text-sm text-ink">
              <span>{t("loreRules.wakeBefore")}</span>
              <select
                aria-label={t("loreRules.logicLabel")}
                value={rules.selectiveLogic}
                onChange={(event) => set({ selectiveLogic: event.target.value as SelectiveLogic })}
                className={`${inputClasses.replace("w-full ", "")} h-10 w-auto pe-8`}
              >
                {LOGIC_NAMES.map(([value, label]) => (
                  <option key={value} value={value}>
                    {t(label)}
                  </option>
                ))}
              </select>
              <span>{t("loreRules.wakeAfter")}</span>
            </div>
            <ChipsInput
              id={`${id}-secondary`}
              listLabel={t("loreRules.secondaryKeys")}
              removeLabel={(value) => t("loreRules.removeSecondary", { value })}
              values={rules.secondaryTriggers}
              onChange={(secondaryTriggers) => set({ secondaryTriggers })}
              draft={rules.secondaryDraft}
              onDraftChange={(secondaryDraft) => set({ secondaryDraft })}
              max={CARD_TRIGGERS_MAX}
              maxLength={CARD_TRIGGER_MAX_LENGTH}
              placeholder={t("loreRules.secondaryPlaceholder")}
              describedBy={`${id}-secondary-hint`}
              tooLongMessage={t("loreRules.secondaryTooLong", { max: CARD_TRIGGER_MAX_LENGTH })}
              tooManyMessage={t("loreRules.secondaryTooMany", { max: CARD_TRIGGERS_MAX })}
              onError={onError}
            />
            <p id={`${id}-secondary-hint`} className="mt-2 text-sm text-ink-muted">
              {t("loreRules.secondaryHint")}
            </p>
          </div>
          <label className="flex items-center gap-2 text-sm font-medium text-ink">
            <input
              type="checkbox"
              checked={rules.caseSensitive}
              onChange={(event) => set({ caseSensitive: event.target.checked })}
              className="size-4 accent-accent-500"
            />
            {t("loreRules.caseSensitive")}
          </label>
          <div className="grid gap-4 sm:grid-cols-2">
            <div>
              <FieldLabel htmlFor={`${id}-order`}>{t("loreRules.insertionOrder")}</FieldLabel>
              <input
                id={`${id}-order`}
                inputMode="numeric"
                value={rules.insertionOrder}
                onChange={(event) => set({ insertionOrder: event.target.value })}
                aria-describedby={`${id}-order-hint`}
                className={`${inputClasses} mt-2`}
              />
              <p id={`${id}-order-hint`} className="mt-2 text-sm text-ink-muted">
                {t("loreRules.insertionOrderHint")}
              </p>
            </div>
            <div>
              <FieldLabel htmlFor={`${id}-priority`}>{t("loreRules.priority")}</FieldLabel>
              <input
                id={`${id}-priority`}
                inputMode="numeric"
                value={rules.priority}
                onChange={(event) => set({ priority: event.target.value })}
                aria-describedby={`${id}-priority-hint`}
                className={`${inputClasses} mt-2`}
              />
              <p id={`${id}-priority-hint`} className="mt-2 text-sm text-ink-muted">
                {t("loreRules.priorityHint")}
              </p>
            </div>
          </div>
        </div>
      ) : null}
    </div>
  );
}
