// Recognises the audio containers the browser recorder produces, by content: WebM (EBML header) and MP4
// (an ftyp box). Anything else is refused before it reaches a vendor.
export type AudioKind = { mimeType: "audio/webm" | "audio/mp4"; extension: "webm" | "mp4" };

export function sniffAudio(data: Buffer): AudioKind | undefined {
  if (data.length >= 4 && data.readUInt32BE(0) === 0x1a45dfa3)
    return { mimeType: "audio/webm", extension: "webm" };
  if (data.length >= 12 && data.toString("latin1", 4, 8) === "ftyp")
    return { mimeType: "audio/mp4", extension: "mp4" };
  return undefined;
}
