// Selected story images: the yellow toggles on a
// story's pictures. In image mode they travel with the next message as references, which keeps a
// character or an object consistent from scene to scene. At most 10 (the image model's limit).
import { MAX_INPUT_IMAGES } from "@storyverse/contract/chat";

export interface SelectedStoryImage {
  /** 'story-' followed by the message id. */
  id: string;
  url: string;
  messageId: string;
}

export const MAX_SELECTED_IMAGES = MAX_INPUT_IMAGES;
export const TOO_MANY_SELECTED_MESSAGE = `Maximum ${MAX_SELECTED_IMAGES} images can be selected for Seedream-4 input`;

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
    return { selected: [...selected], error: TOO_MANY_SELECTED_MESSAGE };
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
