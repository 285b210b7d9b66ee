// What goes into an export or a film, summed up as one hash (decision 0131): a finished file whose hash matches a
// new request's is served again instead of being made again. Kept apart from service.ts so the film job can
// use it without an import cycle.
import { createHash } from "node:crypto";
import type { AppContext } from "../context";
import { storyContentFingerprint } from "../conversation";
import { ownedStoryRecord } from "../stories";
import { SPEECH_RULES_VERSION, type StoryVoices } from "../voice";

/**
 * Who speaks, as far as a hash needs to know: the provider, the narrator's voice and each character's, and the
 * rule that picks the voice for each message.
 */
export function voicesSignature(voices: StoryVoices | undefined) {
  if (!voices) return null;
  return {
    rules: SPEECH_RULES_VERSION,
    provider: voices.provider.name,
    narrator: voices.narratorVoice,
    cast: voices.cast.map((member) => [member.name, member.aliases, member.voice]),
  };
}

/**
 * The content hash of what goes into a file (decision 0131): the story's title, context and cover, the
 * fingerprint of its shown messages (ids, changes, words, media), and what the caller adds (format, paper,
 * voices). NotFound for anyone else's story.
 */
export async function contentHash(
  ctx: Pick<AppContext, "db">,
  userId: string,
  storyId: string,
  what: Record<string, unknown>,
): Promise<string> {
  const record = await ownedStoryRecord(ctx, userId, storyId);
  const messages = await storyContentFingerprint(ctx.db, userId, storyId);
  const input = JSON.stringify({
    what,
    title: record.title,
    context: record.context,
    cover: record.thumbnailKey,
    messages,
  });
  return createHash("sha256").update(input).digest("hex");
}

/** A film's content hash: the story as it shows (words, media, title, cover) and who speaks it (none: silent). */
export const filmHash = (
  ctx: Pick<AppContext, "db">,
  userId: string,
  storyId: string,
  voices: StoryVoices | undefined,
) => contentHash(ctx, userId, storyId, { film: true, voices: voicesSignature(voices) });
