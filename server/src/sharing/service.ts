// Share links: the owner makes a read-only link to one story; whoever holds it reads the story's words and
// media and nothing else (no email, no ids, the username only if the owner opted in). The 128-bit token
// is shown once and only its SHA-256 is stored, so a database leak gives no working links. Making a new
// link retires the old one; revoking ends every link of the story at once (reads check the row each time).
//
// Media go out as share-scoped links, /api/shared/{token}/media/{ref}?exp&sig: they name a position in
// the story, never a storage key (keys carry the owner's id), are signed for this link and ref only, last
// minutes, and die with the link. So nothing on the page leads to any other file of the owner's.
import { createHash, randomBytes } from "node:crypto";
import { SHARE_TOKEN_PATTERN, type SharedStoryResponse } from "@storyverse/contract/sharing";
import { publicUsername } from "../accounts/service";
import { storyTurns } from "../chat/service";
import type { AppContext } from "../context";
import { Forbidden, NotFound } from "../http/errors";
import { createMediaSigner, linkExpiry } from "../media/storage/signing";
import { ownedStoryRecord, type StoryRecord } from "../stories/service";
import { findLiveLinkByHash, findLiveStoryLink, insertShareLink, revokeStoryLinks } from "./repo";

type SharingContext = Pick<AppContext, "db" | "clock" | "storage" | "config">;

/** How long a shared page's media links work; the page asks again for fresh ones on reload. */
export const SHARED_MEDIA_TTL_SECONDS = 15 * 60;
export const SHARED_MEDIA_INVALID = "This media link has expired or is invalid.";

export const SHARE_NOT_FOUND = "This shared story does not exist or is no longer shared.";

const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

export function shareUrl(ctx: Pick<AppContext, "config">, token: string): string {
  return `${ctx.config.appUrl.replace(/\/$/, "")}/s/${token}`;
}

export async function createShare(
  ctx: SharingContext,
  userId: string,
  storyId: string,
  options: { showUsername: boolean },
) {
  await ownedStoryRecord(ctx, userId, storyId);
  const token = randomBytes(16).toString("base64url");
  const now = ctx.clock.now();
  const row = await ctx.db.transaction(async (tx) => {
    await revokeStoryLinks(tx, userId, storyId, now);
    return insertShareLink(tx, {
      userId,
      storyId,
      tokenHash: hashToken(token),
      showUsername: options.showUsername,
      createdAt: now,
    });
  });
  return {
    success: true as const,
    url: shareUrl(ctx, token),
    created_at: row.createdAt.toISOString(),
    show_username: row.showUsername,
  };
}

export async function shareStatus(ctx: SharingContext, userId: string, storyId: string) {
  await ownedStoryRecord(ctx, userId, storyId);
  const link = await findLiveStoryLink(ctx.db, userId, storyId);
  return {
    success: true as const,
    shared: link !== undefined,
    created_at: link?.createdAt.toISOString() ?? null,
    show_username: link?.showUsername ?? false,
  };
}

export async function revokeShare(ctx: SharingContext, userId: string, storyId: string) {
  await ownedStoryRecord(ctx, userId, storyId);
  await revokeStoryLinks(ctx.db, userId, storyId, ctx.clock.now());
  return { success: true as const, message: "The share link no longer works." };
}

export type SharedStory = { record: StoryRecord; response: SharedStoryResponse };

/** "cover", or "<turn index>-image" / "<turn index>-video". */
const MEDIA_REF = /^(cover|(\d{1,6})-(image|video))$/;

const signatureSubject = (tokenHash: string, ref: string) => `shared\n${tokenHash}\n${ref}`;

function mediaLink(ctx: SharingContext, token: string, ref: string): string {
  const exp = linkExpiry(ctx.clock.now(), SHARED_MEDIA_TTL_SECONDS);
  const sig = createMediaSigner(ctx.config.sessionSecret).sign(signatureSubject(hashToken(token), ref), exp);
  return `/api/shared/${token}/media/${ref}?exp=${exp}&sig=${sig}`;
}

async function liveLink(ctx: SharingContext, token: string) {
  if (!SHARE_TOKEN_PATTERN.test(token)) throw new NotFound(SHARE_NOT_FOUND);
  const link = await findLiveLinkByHash(ctx.db, hashToken(token));
  if (!link) throw new NotFound(SHARE_NOT_FOUND);
  return link;
}

/** The story behind a live token; NotFound for a malformed, unknown or revoked one alike. */
export async function readSharedStory(ctx: SharingContext, token: string): Promise<SharedStory> {
  const link = await liveLink(ctx, token);
  const record = await ownedStoryRecord(ctx, link.userId, link.storyId);
  const turns = await storyTurns(ctx, link.userId, link.storyId);
  const messages = turns.map((turn, index) => {
    // Only finished media are shown; a failed or pending turn is its words alone.
    const done = turn.mediaStatus === "completed";
    return {
      role: turn.role,
      content: turn.content,
      mode: turn.mode,
      image_url: done && turn.imageKey ? mediaLink(ctx, token, `${index}-image`) : null,
      video_url: done && turn.videoKey ? mediaLink(ctx, token, `${index}-video`) : null,
    };
  });
  return {
    record,
    response: {
      success: true,
      story: {
        title: record.title,
        context: record.context,
        created_at: record.createdAt.toISOString(),
        thumbnail: record.thumbnailKey ? mediaLink(ctx, token, "cover") : null,
      },
      author: link.showUsername ? await publicUsername(ctx, link.userId) : null,
      messages,
    },
  };
}

/**
 * The storage key behind a shared media link. The signature is checked first (a forged or expired link is
 * a 403 whatever the token), then that the link is still live (a revoked one is a 404 at once).
 */
export async function sharedMediaKey(
  ctx: SharingContext,
  token: string,
  ref: string,
  exp: number,
  sig: string,
): Promise<string> {
  const match = MEDIA_REF.exec(ref);
  const signer = createMediaSigner(ctx.config.sessionSecret);
  if (!match || !signer.verify(signatureSubject(hashToken(token), ref), exp, sig, ctx.clock.now())) {
    throw new Forbidden(SHARED_MEDIA_INVALID);
  }
  const link = await liveLink(ctx, token);
  if (match[1] === "cover") {
    const record = await ownedStoryRecord(ctx, link.userId, link.storyId);
    if (!record.thumbnailKey) throw new NotFound("Media not found");
    return record.thumbnailKey;
  }
  const turns = await storyTurns(ctx, link.userId, link.storyId);
  const turn = turns[Number(match[2])];
  const key =
    turn?.mediaStatus === "completed" ? (match[3] === "image" ? turn.imageKey : turn.videoKey) : null;
  if (!key) throw new NotFound("Media not found");
  return key;
}
