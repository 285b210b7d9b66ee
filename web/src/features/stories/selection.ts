// Selected story images: the yellow toggles on a
// story's pictures. In image mode they travel with the next message as references, which keeps a
// character or an object consistent from scene to scene. At most 10 (the image model's limit).
import { MAX_INPUT_IMAGES } from "@storyverse/contract/chat";
import { i18n } from "../../i18n/i18n";

export interface SelectedStoryImage {
  /** 'story-' followed by the message id. */
  id: string;
  url: string;
  messageId: string;
}

export const MAX_SELECTED_IMAGES = MAX_INPUT_IMAGES;
/** What an eleventh image is refused with, in the interface's language. */
export const tooManySelectedMessage = () => i18n.t("stories:selection.tooMany", { max: MAX_SELECTED_IMAGES });

export function selectionId(messageId: string): string {
  return `story-${messageId}`;
}

export type ToggleResult = { selected: SelectedStoryImage[]; error: string | null };

/** Turns one message's image on or off; refuses an eleventh. */
export function toggleSelection(
  selected: readonly SelectedStoryImage[],
  messageId: string,
  url: string,
): ToggleResult {
  const id = selectionId(messageId);
  if (selected.some((image) => image.id === id)) {
    return { selected: selected.filter((image) => image.id !== id), error: null };
  }
  if (selected.length >= MAX_SELECTED_IMAGES)
    return { selected: [...selected], error: tooManySelectedMessage() };
  return { selected: [...selected, { id, url, messageId }], error: null };
}

/**
 * The selection with each image's current address: signed URLs expire, so the URL sent is the one the
 * latest copy of the conversation carries. Images whose message is gone are dropped.
 */
export function refreshSelection(
  selected: readonly SelectedStoryImage[],
  currentUrl: (messageId: string) => string | null,
): SelectedStoryImage[] {
  return selected.flatMap((image) => {
    const url = currentUrl(image.messageId);
    return url ? [{ ...image, url }] : [];
  });
}
