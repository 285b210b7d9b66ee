// The Studio's input-image rules as pure functions: what may be added from an upload, a
// paste, the gallery picker or an earlier result, and the exact words shown when something may not (in the
// interface's language, read when asked). The components only call these and show the message they return.
import { MAX_INPUT_IMAGES, PROMPT_MAX_LENGTH } from "@storyverse/contract/chat";
import { creditCost } from "@storyverse/contract/credits";
import type { AspectRatio } from "@storyverse/contract/generation-settings";
import { SEED_MAX } from "@storyverse/contract/media-edit";
import type { InputImage, ReferenceRole } from "@storyverse/contract/stories";
import { MAX_REUSED_RESULTS } from "@storyverse/contract/studio";
import { i18n } from "../../i18n/i18n";

export { MAX_INPUT_IMAGES, MAX_REUSED_RESULTS };

export const imageFilesOnlyMessage = () => i18n.t("studio:rules.imageFilesOnly");
export const pasteLimitMessage = () => i18n.t("studio:rules.pasteLimit");
export const pickerLimitMessage = () => i18n.t("studio:rules.pickerLimit");
export const reuseLimitMessage = () => i18n.t("studio:rules.reuseLimit");
/** The web's own word for a batch that ended without pictures (also the thrown error's marker). */
export const INVALID_GENERATION_RESPONSE = "Invalid response from image generation service";
export const invalidGenerationResponseMessage = () => i18n.t("studio:rules.invalidGenerationResponse");
export const PICKER_MAX_SELECTION = MAX_INPUT_IMAGES;

/** 'Maximum 10 images allowed for Seedream-4. You currently have N images.' (the contract's words). */
export const overallLimitMessage = (current: number) =>
  i18n.t("studio:rules.overallLimit", { count: current, max: MAX_INPUT_IMAGES });

export const generationFailedMessage = (message: string) =>
  i18n.t("studio:rules.generationFailed", { message });

/** Decision 0149: the seed field's rule, in the server's words. */
export const seedRuleMessage = () => i18n.t("studio:rules.seedRule", { max: SEED_MAX });

/** The seed field as typed: empty is a new seed (null); anything else a whole number from 0 to SEED_MAX. */
export function parseSeed(typed: string): number | null | "invalid" {
  const text = typed.trim();
  if (!text) return null;
  if (!/^\d{1,10}$/.test(text)) return "invalid";
  const seed = Number(text);
  return seed <= SEED_MAX ? seed : "invalid";
}

/** A shape's width over its height ("9:16" is 0.5625), for frames and placeholders. */
export function ratioValue(shape: AspectRatio): number {
  const [w, h] = shape.split(":").map(Number) as [number, number];
  return w / h;
}

/**
 * The picker's counter: '{n}/{room} selected', room being how many more inputs fit (10 less those already
 * there). It read '/3' while 10 could be selected ("4/3 selected", issue 45 item 9).
 */
export const pickerCounter = (selected: number, room: number = PICKER_MAX_SELECTION) =>
  i18n.t("studio:rules.pickerCounter", { selected, room });

/** How many images the picker may select: what is left of the 10 inputs. */
export const pickerRoom = (inputs: readonly StudioInput[]) =>
  Math.max(0, Math.min(PICKER_MAX_SELECTION, MAX_INPUT_IMAGES - inputs.length));

/**
 * An input image as the composer holds it: either one of the user's gallery items (sent by its id) or an
 * uploaded file (sent as {data, name}). `preview` is what the tray shows; of the origins, only `result`
 * counts against the reuse limit of 3.
 */
export type StudioInput = (
  | { key: string; origin: "gallery" | "result"; id: string; url: string; preview: string }
  | { key: string; origin: "upload" | "paste"; data: string; name: string; preview: string }
) & {
  /** What the picture is for (decision 0161); absent: content. */
  role?: ReferenceRole;
};

/** The answer of every rule: what to add (possibly nothing) and, when something was refused, why. */
export interface RuleResult<T> {
  accepted: T[];
  error: string | null;
}

export function isImageFile(file: { type: string }): boolean {
  return file.type.startsWith("image/");
}

/** Files from the file picker: image files only, and never beyond 10 inputs in all. Nothing is half-added. */
export function checkUploads<T extends { type: string }>(files: T[], currentCount: number): RuleResult<T> {
  if (files.length === 0) return { accepted: [], error: null };
  if (!files.every(isImageFile)) return { accepted: [], error: imageFilesOnlyMessage() };
  if (currentCount + files.length > MAX_INPUT_IMAGES) {
    return { accepted: [], error: overallLimitMessage(currentCount) };
  }
  return { accepted: files, error: null };
}

/**
 * Images from the clipboard (other clipboard content is not ours: a text paste goes to the prompt).
 * A paste that would pass 10 inputs adds nothing and says so.
 */
export function checkPaste<T extends { type: string }>(items: T[], currentCount: number): RuleResult<T> {
  const images = items.filter(isImageFile);
  if (images.length === 0) return { accepted: [], error: null };
  if (currentCount + images.length > MAX_INPUT_IMAGES) return { accepted: [], error: pasteLimitMessage() };
  return { accepted: images, error: null };
}

/**
 * Toggling one image in the gallery picker: at most 10 selected at once, and never more than the inputs
 * have room for (`inputCount` already there): the counter's denominator is that room.
 */
export function togglePickerSelection(
  selected: readonly string[],
  id: string,
  inputCount = 0,
): RuleResult<string> & {
  selection: string[];
} {
  if (selected.includes(id)) {
    return { accepted: [], error: null, selection: selected.filter((value) => value !== id) };
  }
  if (selected.length >= PICKER_MAX_SELECTION) {
    return { accepted: [], error: pickerLimitMessage(), selection: [...selected] };
  }
  if (inputCount + selected.length >= MAX_INPUT_IMAGES) {
    return { accepted: [], error: overallLimitMessage(inputCount), selection: [...selected] };
  }
  return { accepted: [id], error: null, selection: [...selected, id] };
}

/** Adding the picker's selection to the inputs (those already there are skipped): never beyond 10 in all. */
export function checkPickerAdd(
  newIds: readonly string[],
  inputs: readonly StudioInput[],
): RuleResult<string> {
  const present = new Set(inputs.flatMap((input) => ("id" in input ? [input.id] : [])));
  const fresh = newIds.filter((id) => !present.has(id));
  if (inputs.length + fresh.length > MAX_INPUT_IMAGES) {
    return { accepted: [], error: overallLimitMessage(inputs.length) };
  }
  return { accepted: fresh, error: null };
}

/**
 * Selecting an earlier result for reuse: at most 3 results at once (and 10 inputs in all). Selecting a
 * result that is already an input removes it again.
 */
export function toggleResultReuse(
  inputs: readonly StudioInput[],
  result: { id: string; url: string; preview: string },
): { inputs: StudioInput[]; error: string | null } {
  const existing = inputs.find((input) => "id" in input && input.id === result.id);
  if (existing) return { inputs: inputs.filter((input) => input !== existing), error: null };
  const reused = inputs.filter((input) => input.origin === "result").length;
  if (reused >= MAX_REUSED_RESULTS) return { inputs: [...inputs], error: reuseLimitMessage() };
  if (inputs.length >= MAX_INPUT_IMAGES)
    return { inputs: [...inputs], error: overallLimitMessage(inputs.length) };
  return {
    inputs: [...inputs, { key: `result-${result.id}`, origin: "result", ...result }],
    error: null,
  };
}

/** What a batch costs (1.5 credits an image) and what the advisor costs. */
export function studioCost(mode: "chat" | "image", batchSize: number): number {
  return mode === "chat" ? creditCost("advisor") : creditCost("image", batchSize);
}

/**
 * What goes to the server for each input: a gallery item by its id, an upload as {data, name}; one marked
 * style or character carries its role (a gallery item then as {url: its id, role}).
 */
export function toRequestInput(input: StudioInput): InputImage {
  const role = input.role && input.role !== "content" ? { role: input.role } : {};
  if ("id" in input) return input.role && input.role !== "content" ? { url: input.id, ...role } : input.id;
  return { data: input.data, name: input.name, ...role };
}

/**
 * The prompt an advisor's answer suggests, for "Use this prompt": its first fenced block, else its first
 * quoted block (> ...), else a line labelled "Prompt:", else its first long quotation, else the whole answer
 * without Markdown marks; at most PROMPT_MAX_LENGTH characters.
 */
export function suggestedPrompt(answer: string): string {
  const fenced = /```[^\n]*\n([\s\S]*?)```/.exec(answer)?.[1];
  const quoted = /(?:^|\n)((?:>[^\n]*(?:\n|$))+)/.exec(answer)?.[1]?.replace(/^>\s?/gm, "");
  const labelled = /(?:^|\n)[*_\s]*prompt[*_]*\s*:[*_]*\s*(.+)/i.exec(answer)?.[1];
  const quotation = /[“"]([^”"\n]{15,})[”"]/.exec(answer)?.[1];
  const chosen = [fenced, quoted, labelled, quotation].find((text) => text?.trim()) ?? answer;
  const plain = chosen
    .replace(/\*\*|__|`|^#+\s*/gm, "")
    .replace(/^\s*[-*]\s+/gm, "")
    .replace(/\s+/g, " ")
    .trim()
    .replace(/^[“"](.*)[”"]$/, "$1");
  return plain.slice(0, PROMPT_MAX_LENGTH);
}

/**
 * A batch's answer in the interface's language: the server records it in English (batch-job.ts's
 * batchSummary: "Here are your 4 images.", or "Here are 3 images of the 4 you asked for; the 1 that could
 * not be made was refunded."). Null for words it does not recognise (shown as they came).
 */
export function batchSummaryText(content: string): string | null {
  const text = content.trim();
  if (text === "Here is your image.") return i18n.t("studio:summary.all", { count: 1 });
  const all = /^Here are your (\d+) images\.$/.exec(text);
  if (all) return i18n.t("studio:summary.all", { count: Number(all[1]) });
  const partial =
    /^Here (?:is 1 image|are (\d+) images) of the (\d+) you asked for; the (\d+) that could not be made (?:was|were) refunded\.$/.exec(
      text,
    );
  if (!partial) return null;
  const made = partial[1] === undefined ? 1 : Number(partial[1]);
  const values = { made, asked: Number(partial[2]), count: Number(partial[3]) };
  return made === 1
    ? i18n.t("studio:summary.partialOne", values)
    : i18n.t("studio:summary.partialMany", values);
}
