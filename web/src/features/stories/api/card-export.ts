// GET /api/stories/{id}/cards/{card_id}/export and GET /api/stories/{id}/cards/export: a Story Card as a
// Character Card V3 (PNG, CHARX or JSON), or all of a story's cards as a lorebook (SillyTavern World Info
// or a V3 character_book). Fetched with the player's token and handed to the browser as a file.
import type { CardExportFormat, LoreExportFormat } from "@storyverse/contract/interop";
import { apiDownload } from "../../../lib/api-client";

const cardsPath = (storyId: string) => `/api/stories/${encodeURIComponent(storyId)}/cards`;

const CARD_EXTENSIONS: Record<CardExportFormat, string> = { png: "png", charx: "charx", json: "json" };

/** A name safe on every file system, for when the server names no file. */
function fileStem(name: string): string {
  return name.replace(/[^\p{L}\p{N} _-]+/gu, "").trim() || "card";
}

function saveBlob(blob: Blob, filename: string): void {
  const objectUrl = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = objectUrl;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  // Give the browser a moment to start the download before the URL is revoked.
  setTimeout(() => URL.revokeObjectURL(objectUrl), 60_000);
}

export async function downloadCardExport(
  storyId: string,
  card: { id: string; name: string },
  format: CardExportFormat,
): Promise<void> {
  const { blob, filename } = await apiDownload(
    `${cardsPath(storyId)}/${encodeURIComponent(card.id)}/export?format=${format}`,
  );
  saveBlob(blob, filename ?? `${fileStem(card.name)}.${CARD_EXTENSIONS[format]}`);
}

export async function downloadLoreExport(storyId: string, format: LoreExportFormat): Promise<void> {
  const { blob, filename } = await apiDownload(`${cardsPath(storyId)}/export?format=${format}`);
  saveBlob(blob, filename ?? (format === "worldinfo" ? "world-info.json" : "character-book.json"));
}
