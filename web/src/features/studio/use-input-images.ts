// The Studio composer's input images: uploads, pastes, picks from the gallery and reused results, held in
// one list and checked by studio-rules.ts. A refused addition adds nothing and reports the rule's words.
import type { GalleryItem } from "@storyverse/contract/media";
import type { ReferenceRole } from "@storyverse/contract/stories";
import { useCallback, useRef, useState } from "react";
import { i18n } from "../../i18n/i18n";
import { readFileAsDataUrl } from "../../lib/read-file";
import {
  checkPaste,
  checkPickerAdd,
  checkUploads,
  type StudioInput,
  toggleResultReuse,
} from "./studio-rules";

let counter = 0;
const nextKey = (origin: string) => `${origin}-${Date.now().toString(36)}-${++counter}`;

/** The files of a paste: the clipboard's files, or its file items when a browser lists only those. */
export function clipboardFiles(data: DataTransfer | null): File[] {
  if (!data) return [];
  const files = Array.from(data.files ?? []);
  if (files.length > 0) return files;
  return Array.from(data.items ?? [])
    .filter((item) => item.kind === "file")
    .map((item) => item.getAsFile())
    .filter((file): file is File => file !== null);
}

function extensionOf(type: string): string {
  const sub = type.split("/")[1] ?? "png";
  return sub === "jpeg" ? "jpg" : sub.replace(/\W.*$/, "") || "png";
}

export function useInputImages(onError: (text: string) => void) {
  const [inputs, setInputs] = useState<StudioInput[]>([]);
  // The latest list, for checks made between a render and the next (two quick pastes).
  const current = useRef(inputs);
  const update = useCallback((next: StudioInput[]) => {
    current.current = next;
    setInputs(next);
  }, []);

  const addFiles = useCallback(
    async (files: File[], origin: "upload" | "paste") => {
      const { accepted, error } =
        origin === "upload"
          ? checkUploads(files, current.current.length)
          : checkPaste(files, current.current.length);
      if (error) {
        onError(error);
        return false;
      }
      if (accepted.length === 0) return false;
      let read: StudioInput[];
      try {
        read = await Promise.all(
          accepted.map(async (file, index) => {
            const data = await readFileAsDataUrl(file);
            const name =
              file.name && file.name !== "image.png"
                ? file.name
                : `pasted-image-${current.current.length + index + 1}.${extensionOf(file.type)}`;
            return { key: nextKey(origin), origin, data, name, preview: data } satisfies StudioInput;
          }),
        );
      } catch {
        onError(i18n.t("studio:rules.unreadableImage"));
        return false;
      }
      // Checked again: the list may have grown while the files were read.
      const again =
        origin === "upload"
          ? checkUploads(
              read.map(() => ({ type: "image/*" })),
              current.current.length,
            )
          : checkPaste(
              read.map(() => ({ type: "image/*" })),
              current.current.length,
            );
      if (again.error) {
        onError(again.error);
        return false;
      }
      update([...current.current, ...read]);
      return true;
    },
    [onError, update],
  );

  /** Adds the picker's selection; returns false (and reports why) when it would pass 10 inputs. */
  const addFromGallery = useCallback(
    (items: GalleryItem[]) => {
      const { accepted, error } = checkPickerAdd(
        items.map((item) => item.id),
        current.current,
      );
      if (error) {
        onError(error);
        return false;
      }
      const byId = new Map(items.map((item) => [item.id, item]));
      const added = accepted.flatMap((id): StudioInput[] => {
        const item = byId.get(id);
        return item
          ? [
              {
                key: nextKey("gallery"),
                origin: "gallery",
                id: item.id,
                url: item.url,
                preview: item.thumbnail_url ?? item.url,
              },
            ]
          : [];
      });
      update([...current.current, ...added]);
      return true;
    },
    [onError, update],
  );

  const toggleResult = useCallback(
    (item: GalleryItem) => {
      const { inputs: next, error } = toggleResultReuse(current.current, {
        id: item.id,
        url: item.url,
        preview: item.thumbnail_url ?? item.url,
      });
      if (error) onError(error);
      else update(next);
    },
    [onError, update],
  );

  const remove = useCallback(
    (key: string) => update(current.current.filter((input) => input.key !== key)),
    [update],
  );
  const clear = useCallback(() => update([]), [update]);
  const restore = useCallback((list: StudioInput[]) => update(list), [update]);
  /** Marks an input content, style or character (decision 0161). */
  const setRole = useCallback(
    (key: string, role: ReferenceRole) =>
      update(current.current.map((input) => (input.key === key ? { ...input, role } : input))),
    [update],
  );

  return { inputs, addFiles, addFromGallery, toggleResult, remove, clear, restore, setRole };
}
