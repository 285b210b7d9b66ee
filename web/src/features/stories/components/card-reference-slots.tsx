// A Story Card's other reference pictures after its portrait (issue 45 item 3, decision 0161): up to three more
// views or outfits, each picked from the gallery or uploaded, removed or moved earlier one at a time. When the
// card is used, all of them guide the scene with the portrait. The editor sends them as `references`.
import {
  CARD_REFERENCES_MAX,
  type CardReferenceInput,
  type StoryCard,
} from "@storyverse/contract/story-cards";
import { ArrowLeft, ImagePlus, Upload, X } from "lucide-react";
import { type ReactNode, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "../../../components/button";
import { readFileAsDataUrl } from "../../../lib/read-file";

/** One of the extra pictures as the editor holds it: the card's own (kept), picked from the gallery, or uploaded. */
export type ReferenceChoice =
  | { kind: "kept"; url: string; galleryId: string | null }
  | { kind: "gallery"; id: string; url: string }
  | { kind: "upload"; data: string; name: string };

/** The portrait is the first of a card's pictures: this many more fit beside it. */
export const EXTRA_REFERENCES_MAX = CARD_REFERENCES_MAX - 1;

/** A saved card's pictures after its portrait, as the editor starts with them. */
export function savedExtras(card: Pick<StoryCard, "portrait" | "references"> | null): ReferenceChoice[] {
  if (!card) return [];
  const rest = card.portrait ? card.references.slice(1) : card.references;
  return rest.map((reference) => ({
    kind: "kept",
    url: reference.url,
    galleryId: reference.gallery_item_id,
  }));
}

/** A picture as the API takes it: the card's own upload is kept by its url, anything else sent as chosen. */
export function referenceInput(choice: ReferenceChoice): CardReferenceInput {
  if (choice.kind === "kept") {
    return choice.galleryId ? { gallery_item_id: choice.galleryId } : { kept_url: choice.url };
  }
  if (choice.kind === "gallery") return { gallery_item_id: choice.id };
  return { data: choice.data, name: choice.name };
}

const shownUrl = (choice: ReferenceChoice) => (choice.kind === "upload" ? choice.data : choice.url);
/** A picture's own key in the list (it moves, so never its position). */
const keyOf = (choice: ReferenceChoice) =>
  choice.kind === "upload"
    ? `upload:${choice.name}:${choice.data.length}:${choice.data.slice(-32)}`
    : choice.url;

export function CardReferenceSlots({
  extras,
  onChange,
  onError,
  picker,
}: {
  extras: ReferenceChoice[];
  onChange: (extras: ReferenceChoice[]) => void;
  onError: (message: string) => void;
  /** The gallery picker, calling back with the picked image. */
  picker: (onPick: (item: { id: string; url: string }) => void) => ReactNode;
}) {
  const { t } = useTranslation("stories", { keyPrefix: "cardEditor" });
  const [picking, setPicking] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);
  const full = extras.length >= EXTRA_REFERENCES_MAX;
  const add = (choice: ReferenceChoice) => {
    if (full) return;
    onChange([...extras, choice]);
    setPicking(false);
  };
  const moveEarlier = (index: number) => {
    const next = [...extras];
    [next[index - 1], next[index]] = [next[index]!, next[index - 1]!];
    onChange(next);
  };
  return (
    <fieldset>
      <legend className="text-sm font-medium text-ink">{t("moreViews")}</legend>
      {extras.length > 0 ? (
        <ul className="mt-2 flex flex-wrap gap-3">
          {extras.map((choice, index) => {
            // Picture 1 is the portrait: these are pictures 2, 3 and 4.
            const number = index + 2;
            return (
              <li key={keyOf(choice)} className="flex flex-col items-center gap-1">
                <img
                  src={shownUrl(choice)}
                  alt={t("view", { number })}
                  className="size-20 rounded-xl border border-line object-cover"
                />
                <div className="flex gap-1">
                  {index > 0 ? (
                    <Button
                      size="xs"
                      variant="ghost"
                      icon={<ArrowLeft aria-hidden="true" className="size-3.5" />}
                      aria-label={t("moveViewEarlier", { number })}
                      onClick={() => moveEarlier(index)}
                    />
                  ) : null}
                  <Button
                    size="xs"
                    variant="ghost"
                    icon={<X aria-hidden="true" className="size-3.5" />}
                    aria-label={t("removeView", { number })}
                    onClick={() => onChange(extras.filter((_, i) => i !== index))}
                  />
                </div>
              </li>
            );
          })}
        </ul>
      ) : null}
      {full ? (
        <p className="mt-2 text-sm text-ink-muted">{t("viewsFull", { count: CARD_REFERENCES_MAX })}</p>
      ) : (
        <div className="mt-2 flex flex-wrap gap-2">
          <Button
            size="sm"
            variant="secondary"
            icon={<ImagePlus aria-hidden="true" className="size-4" />}
            aria-expanded={picking}
            onClick={() => setPicking(!picking)}
          >
            {t("addViewFromGallery")}
          </Button>
          <Button
            size="sm"
            variant="secondary"
            icon={<Upload aria-hidden="true" className="size-4" />}
            onClick={() => fileInput.current?.click()}
          >
            {t("uploadView")}
          </Button>
          <input
            ref={fileInput}
            type="file"
            accept="image/png,image/jpeg,image/webp,image/gif"
            aria-label={t("uploadView")}
            className="hidden"
            onChange={async (event) => {
              const file = event.target.files?.[0];
              event.target.value = "";
              if (!file) return;
              if (!file.type.startsWith("image/")) return onError(t("imagesOnly"));
              add({ kind: "upload", data: await readFileAsDataUrl(file), name: file.name });
            }}
          />
        </div>
      )}
      {picking && !full ? picker((item) => add({ kind: "gallery", id: item.id, url: item.url })) : null}
      <p className="mt-2 text-sm text-ink-muted">{t("moreViewsHint")}</p>
    </fieldset>
  );
}
