// The Studio's gallery picker: the user's images in a 5-column grid of
// thumbnails, toggled on and off, added to the inputs together. Up to 10 may be selected ('Maximum 10
// images can be selected for Seedream-4 input'), and never more than the inputs have room for; the counter
// reads '{n}/{room} selected' (studio-rules.ts); and the inputs never pass 10 in all.
import * as Dialog from "@radix-ui/react-dialog";
import type { GalleryItem } from "@storyverse/contract/media";
import { useQuery } from "@tanstack/react-query";
import { Check, ImagePlus, X } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Button, Spinner } from "../../../components/button";
import { buttonClasses, iconButtonClasses } from "../../../components/button-classes";
import { MediaThumb } from "../../../components/media-thumb";
import { translateServerMessage } from "../../../i18n/server-messages";
import { errorMessage } from "../../../lib/api-errors";
import { userImagesQueryOptions } from "../../../shared/gallery/user-images";
import {
  checkPickerAdd,
  pickerCounter,
  pickerRoom,
  type StudioInput,
  togglePickerSelection,
} from "../studio-rules";

interface GalleryPickerDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  inputs: readonly StudioInput[];
  onAdd: (items: GalleryItem[]) => void;
}

export function GalleryPickerDialog({ open, onOpenChange, inputs, onAdd }: GalleryPickerDialogProps) {
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-[60] bg-black/60 backdrop-blur-sm motion-safe:animate-fade-in" />
        <Dialog.Content className="fixed top-1/2 left-1/2 z-[60] flex max-h-[calc(100dvh-2rem)] w-[calc(100%-1.5rem)] max-w-4xl -translate-x-1/2 -translate-y-1/2 flex-col rounded-3xl border border-line bg-surface text-ink shadow-lifted outline-none motion-safe:animate-fade-in">
          {open ? <PickerBody inputs={inputs} onAdd={onAdd} onClose={() => onOpenChange(false)} /> : null}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

function PickerBody({
  inputs,
  onAdd,
  onClose,
}: {
  inputs: readonly StudioInput[];
  onAdd: (items: GalleryItem[]) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation("studio");
  const images = useQuery(userImagesQueryOptions());
  const [selected, setSelected] = useState<string[]>([]);
  const [error, setError] = useState<string | null>(null);
  const alreadyAdded = new Set(inputs.flatMap((input) => ("id" in input ? [input.id] : [])));

  const toggle = (id: string) => {
    const result = togglePickerSelection(selected, id, inputs.length);
    setSelected(result.selection);
    setError(result.error);
  };

  const add = () => {
    const items = images.data ?? [];
    const { error: refused } = checkPickerAdd(selected, inputs);
    if (refused) {
      setError(refused);
      return;
    }
    const byId = new Map(items.map((item) => [item.id, item]));
    onAdd(selected.flatMap((id) => byId.get(id) ?? []));
    onClose();
  };

  return (
    <>
      <div className="flex items-start justify-between gap-4 border-b border-line px-5 py-4 sm:px-6">
        <div>
          <Dialog.Title className="text-lg font-semibold tracking-tight">{t("picker.title")}</Dialog.Title>
          <Dialog.Description className="mt-1 text-sm text-ink-muted">
            {t("picker.description")}
          </Dialog.Description>
        </div>
        <Dialog.Close className={iconButtonClasses} aria-label={t("picker.close")}>
          <X aria-hidden="true" className="size-5" />
        </Dialog.Close>
      </div>

      <div className="min-h-0 flex-1 overflow-y-auto px-5 py-4 sm:px-6">
        {images.isPending ? (
          <p role="status" className="flex items-center justify-center gap-2 py-16 text-sm text-ink-muted">
            <Spinner />
            {t("picker.loading")}
          </p>
        ) : images.isError ? (
          <p role="alert" data-server-text className="py-16 text-center text-sm font-medium text-danger">
            {t("picker.error", { message: translateServerMessage(errorMessage(images.error)) })}
          </p>
        ) : images.data.length === 0 ? (
          <div className="grid place-items-center py-16 text-center">
            <span className="grid size-12 place-items-center rounded-2xl bg-accent-soft text-accent-ink">
              <ImagePlus aria-hidden="true" className="size-6" />
            </span>
            <p className="mt-3 font-medium">{t("picker.empty")}</p>
            <p className="mt-1 text-sm text-ink-muted">{t("picker.emptyHint")}</p>
          </div>
        ) : (
          <ul className="grid grid-cols-3 gap-2 sm:grid-cols-5 sm:gap-3" aria-label={t("picker.yourImages")}>
            {images.data.map((item, index) => {
              const order = selected.indexOf(item.id);
              const isSelected = order >= 0;
              const added = alreadyAdded.has(item.id);
              const label = item.description.trim() || t("picker.image", { number: index + 1 });
              return (
                <li key={item.id}>
                  <button
                    type="button"
                    aria-pressed={isSelected}
                    disabled={added}
                    onClick={() => toggle(item.id)}
                    title={added ? t("picker.alreadyInput") : item.description || undefined}
                    className={`relative block aspect-square w-full overflow-hidden rounded-xl border-2 transition duration-200 disabled:cursor-not-allowed disabled:opacity-50 ${
                      isSelected
                        ? "border-accent-500 ring-2 ring-accent-500/40"
                        : "border-transparent hover:border-accent-400/60"
                    }`}
                  >
                    <MediaThumb
                      src={item.thumbnail_url ?? item.url}
                      type="image"
                      alt={label}
                      eager={index < 15}
                      className="size-full"
                    />
                    {isSelected ? (
                      <span
                        aria-hidden="true"
                        className="bg-primary-gradient absolute top-1.5 inset-e-1.5 grid size-6 place-items-center rounded-full text-xs font-bold text-white shadow-soft"
                      >
                        {order + 1}
                      </span>
                    ) : added ? (
                      <span
                        aria-hidden="true"
                        className="absolute top-1.5 inset-e-1.5 grid size-6 place-items-center rounded-full bg-black/60 text-white"
                      >
                        <Check className="size-3.5" />
                      </span>
                    ) : null}
                  </button>
                </li>
              );
            })}
          </ul>
        )}
      </div>

      <div className="border-t border-line px-5 py-4 sm:px-6">
        {error ? (
          <p role="alert" className="mb-3 rounded-xl bg-danger/10 px-3 py-2 text-sm font-medium text-danger">
            {error}
          </p>
        ) : null}
        <div className="flex flex-wrap items-center justify-between gap-3">
          <p className="text-sm font-medium text-ink-muted tabular-nums" aria-live="polite">
            {pickerCounter(selected.length, pickerRoom(inputs))}
          </p>
          <div className="flex gap-2">
            <Dialog.Close className={buttonClasses("secondary", "sm")}>{t("picker.cancel")}</Dialog.Close>
            <Button size="sm" disabled={selected.length === 0} onClick={add}>
              {t("picker.addSelected")}
            </Button>
          </div>
        </div>
      </div>
    </>
  );
}
