// The one form behind both story dialogs: a title with its limit, a context, Cancel and the submit button
// (disabled while the title is blank, spinning while busy). Create New Story asks for a Story Name (x/30)
// and an optional context with a hint; Story Settings for a Story Title (up to 100) and a context with its
// counter (x/2000). The contract's request schema checks the fields before anything is sent (react-hook-
// form with its zod resolver); what happens on submit is each dialog's own.
import { zodResolver } from "@hookform/resolvers/zod";
import {
  createStoryRequestSchema,
  STORY_CONTEXT_MAX_LENGTH,
  STORY_NAME_MAX_LENGTH,
  STORY_TITLE_MAX_LENGTH,
  updateStoryRequestSchema,
} from "@storyverse/contract/stories";
import { type ReactNode, useId } from "react";
import { type Resolver, useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { Button } from "../../../components/button";
import { buttonClasses } from "../../../components/button-classes";
import { FormAlert } from "../../../components/form-alert";
import { ModalActions, ModalClose } from "../../../components/modal";
import { FieldLabel, inputClasses, textareaClasses } from "../../../components/text-field";

export interface StoryFields {
  title: string;
  context: string;
}

type StoryFormKind = "create" | "settings";

// The words of each form are in the stories namespace, under storyForm.create and storyForm.settings.
const FORMS = {
  create: {
    schema: createStoryRequestSchema,
    titleMax: STORY_NAME_MAX_LENGTH,
    titleCounter: true,
    hasTitlePlaceholder: true,
    // The Create form sets no limit of its own on the context (the server's still holds).
    contextMax: undefined,
    contextRows: 4,
    hasContextHint: true,
  },
  settings: {
    schema: updateStoryRequestSchema,
    titleMax: STORY_TITLE_MAX_LENGTH,
    titleCounter: false,
    hasTitlePlaceholder: false,
    contextMax: STORY_CONTEXT_MAX_LENGTH,
    contextRows: 6,
    hasContextHint: false,
  },
} as const;

/** Counters appear from this share of a limit. */
const NEAR_LIMIT = 0.8;

interface StoryFormProps {
  kind: StoryFormKind;
  initial?: StoryFields;
  busy: boolean;
  error: string | null;
  /** Called with the fields as typed, once the request schema accepts them. */
  onSubmit: (fields: StoryFields) => void;
  /** More fields after the context (the story view's settings add Memory and Author's Note). */
  extra?: ReactNode;
}

export function StoryForm({
  kind,
  initial = { title: "", context: "" },
  busy,
  error,
  onSubmit,
  extra,
}: StoryFormProps) {
  const { t } = useTranslation("stories");
  const form = FORMS[kind];
  const text = {
    titleLabel: t(`storyForm.${kind}.titleLabel`),
    titlePlaceholder: form.hasTitlePlaceholder ? t("storyForm.create.titlePlaceholder") : undefined,
    contextPlaceholder: t(`storyForm.${kind}.contextPlaceholder`),
    contextHint: form.hasContextHint ? t("storyForm.create.contextHint") : undefined,
    submit: t(`storyForm.${kind}.submit`),
    submitting: t(`storyForm.${kind}.submitting`),
    blankReason: t(`storyForm.${kind}.blankReason`),
  };
  const { register, handleSubmit, watch, formState } = useForm<StoryFields>({
    defaultValues: initial,
    // Raw: each dialog gets the fields as typed (Story Settings sends the context untrimmed).
    resolver: zodResolver(form.schema, undefined, { raw: true }) as Resolver<StoryFields>,
  });
  const title = watch("title");
  const context = watch("context");
  const id = useId();
  const blank = title.trim() === "";
  // Counters show near a limit (always for the Story Name, as the spec has it), and the cap is said out
  // loud: a typed or pasted name is never cut short without a word.
  const titleCounter = form.titleCounter || title.length >= form.titleMax * NEAR_LIMIT;
  const atTitleLimit = title.length >= form.titleMax;
  const contextLimit = form.contextMax ?? STORY_CONTEXT_MAX_LENGTH;
  const contextCounter = form.contextMax !== undefined || context.length >= contextLimit * NEAR_LIMIT;
  const titleNote = blank
    ? text.blankReason
    : atTitleLimit
      ? t(`storyForm.${kind}.atLimit`, { max: form.titleMax })
      : null;
  // The contract's own words for a field it refuses (FormAlert shows them in the interface's language).
  const invalid = formState.errors.title?.message ?? formState.errors.context?.message ?? null;

  return (
    <form onSubmit={handleSubmit((fields) => (busy ? undefined : onSubmit(fields)))} noValidate>
      <div className="space-y-5">
        <div>
          <FieldLabel
            htmlFor={`${id}-title`}
            counter={titleCounter ? `${title.length}/${form.titleMax}` : undefined}
          >
            {text.titleLabel}
          </FieldLabel>
          <input
            id={`${id}-title`}
            {...register("title")}
            maxLength={form.titleMax}
            placeholder={text.titlePlaceholder}
            autoComplete="off"
            required
            aria-describedby={`${id}-title-note`}
            className={`${inputClasses} mt-2`}
          />
          <p
            id={`${id}-title-note`}
            aria-live="polite"
            className={`mt-2 min-h-5 text-sm ${atTitleLimit ? "font-medium text-amber-800 dark:text-amber-200" : "text-ink-muted"}`}
          >
            {titleNote}
          </p>
        </div>
        <div>
          <FieldLabel
            htmlFor={`${id}-context`}
            counter={contextCounter ? `${context.length}/${contextLimit}` : undefined}
            aside={form.contextMax ? undefined : t("storyForm.optional")}
          >
            {t("storyForm.contextLabel")}
          </FieldLabel>
          <textarea
            id={`${id}-context`}
            {...register("context")}
            maxLength={form.contextMax}
            rows={form.contextRows}
            placeholder={text.contextPlaceholder}
            aria-describedby={text.contextHint ? `${id}-context-hint` : undefined}
            className={`${textareaClasses} mt-2`}
          />
          {text.contextHint ? (
            <p id={`${id}-context-hint`} className="mt-2 text-sm text-ink-muted">
              {text.contextHint}
            </p>
          ) : null}
        </div>
        {extra}
      </div>
      <FormAlert message={error ?? invalid} className="mt-5" />
      <ModalActions>
        <ModalClose type="button" disabled={busy} className={buttonClasses("secondary", "sm")}>
          {t("storyForm.cancel")}
        </ModalClose>
        <Button type="submit" size="sm" disabled={blank} loading={busy} loadingText={text.submitting}>
          {text.submit}
        </Button>
      </ModalActions>
    </form>
  );
}
