// The Story Cards' export menus: one card as a Character Card V3 (a PNG other apps read, CHARX with its
// pictures, or plain JSON), or all of the story's cards as a lorebook (SillyTavern World Info or a V3
// character book). A Radix menu (roles, roving focus, Escape); not modal, as the app's CSP refuses the
// style element a modal menu injects. A failed download is reported to the caller, which shows it.

import * as DropdownMenu from "@radix-ui/react-dropdown-menu";
import type { CardExportFormat, LoreExportFormat } from "@storyverse/contract/interop";
import type { ParseKeys } from "i18next";
import { ChevronDown, Download } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Spinner } from "../../../components/button";
import { buttonClasses } from "../../../components/button-classes";
import { translateServerMessage } from "../../../i18n/server-messages";
import { errorMessage } from "../../../lib/api-errors";
import { downloadCardExport, downloadLoreExport } from "../api/card-export";

const itemClasses =
  "flex min-h-11 cursor-pointer flex-col justify-center rounded-xl px-3 py-1.5 text-sm font-medium text-ink outline-none " +
  "transition-colors duration-150 data-highlighted:bg-surface-2 data-disabled:cursor-default data-disabled:opacity-50";

/** A format's label and hint: keys of the story-tools namespace. */
type FormatItem<F extends string> = {
  format: F;
  label: ParseKeys<"story-tools">;
  hint: ParseKeys<"story-tools">;
};

const CARD_FORMATS: FormatItem<CardExportFormat>[] = [
  { format: "png", label: "cardExport.pngLabel", hint: "cardExport.pngHint" },
  { format: "charx", label: "cardExport.charxLabel", hint: "cardExport.charxHint" },
  { format: "json", label: "cardExport.jsonLabel", hint: "cardExport.jsonHint" },
];

const LORE_FORMATS: FormatItem<LoreExportFormat>[] = [
  { format: "worldinfo", label: "cardExport.worldInfoLabel", hint: "cardExport.worldInfoHint" },
  { format: "character_book", label: "cardExport.characterBookLabel", hint: "cardExport.characterBookHint" },
];

interface ExportMenuProps<F extends string> {
  label: string;
  triggerLabel: string;
  items: FormatItem<F>[];
  download: (format: F) => Promise<void>;
  onError: (message: string | null) => void;
  disabled?: boolean;
  size: "xs" | "sm";
}

function ExportMenu<F extends string>({
  label,
  triggerLabel,
  items,
  download,
  onError,
  disabled,
  size,
}: ExportMenuProps<F>) {
  const { t } = useTranslation("story-tools");
  const [busy, setBusy] = useState(false);
  const start = async (format: F) => {
    onError(null);
    setBusy(true);
    try {
      await download(format);
    } catch (failure) {
      onError(t("cardExport.failed", { reason: translateServerMessage(errorMessage(failure)) }));
    } finally {
      setBusy(false);
    }
  };
  return (
    <DropdownMenu.Root modal={false}>
      <DropdownMenu.Trigger
        aria-label={label}
        disabled={disabled || busy}
        aria-busy={busy || undefined}
        className={buttonClasses(size === "xs" ? "ghost" : "secondary", size)}
      >
        {busy ? <Spinner className="size-3.5" /> : <Download aria-hidden="true" className="size-3.5" />}
        {triggerLabel}
        <ChevronDown aria-hidden="true" className="size-3.5" />
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          align="start"
          sideOffset={6}
          collisionPadding={12}
          className="z-[70] w-72 max-w-[calc(100vw-1.5rem)] rounded-2xl border border-line bg-surface p-2 text-ink shadow-lifted motion-safe:animate-fade-in"
        >
          {items.map((item) => (
            <DropdownMenu.Item
              key={item.format}
              className={itemClasses}
              onSelect={() => void start(item.format)}
            >
              <span>{t(item.label)}</span>
              <span className="text-xs font-normal text-ink-muted">{t(item.hint)}</span>
            </DropdownMenu.Item>
          ))}
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}

/** One card's "Export" menu: PNG card, CHARX or JSON. */
export function CardExportMenu({
  storyId,
  card,
  onError,
}: {
  storyId: string;
  card: { id: string; name: string };
  onError: (message: string | null) => void;
}) {
  const { t } = useTranslation("story-tools");
  return (
    <ExportMenu
      label={t("cardExport.exportLabel", { name: card.name })}
      triggerLabel={t("cardExport.export")}
      items={CARD_FORMATS}
      download={(format) => downloadCardExport(storyId, card, format)}
      onError={onError}
      size="xs"
    />
  );
}

/** All of the story's cards as a lorebook. */
export function LoreExportMenu({
  storyId,
  disabled,
  onError,
}: {
  storyId: string;
  disabled: boolean;
  onError: (message: string | null) => void;
}) {
  const { t } = useTranslation("story-tools");
  return (
    <ExportMenu
      label={t("cardExport.exportAllLabel")}
      triggerLabel={t("cardExport.exportAll")}
      items={LORE_FORMATS}
      download={(format) => downloadLoreExport(storyId, format)}
      onError={onError}
      disabled={disabled}
      size="sm"
    />
  );
}
