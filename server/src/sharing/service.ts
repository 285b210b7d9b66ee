// Share links: the owner makes a read-only link to one story; whoever holds it reads the story's words and
// media and nothing else (no email, no ids, the username only if the owner opted in). The 128-bit token
// is an HMAC of the link's id under the server's secret and only its SHA-256 is stored, so the owner can be
// shown the live link again at any time while a database leak alone still gives no working links. Making a
// new link retires the old one; revoking ends every link of the story at once (reads check the row each time).
//
// The story is read a page at a time (decision 0138): the newest page, then older ones by a cursor sealed for
// this link; messages are named by handles of this link's (handles.ts), never by their ids.
//
// Media go out as share-scoped links, /api/shared/{token}/media/{ref}?exp&sig: they name a message of the
// story by its handle, never a storage key (keys carry the owner's id), are signed for this link and ref only,
// last minutes, and die with the link. So nothing on the page leads to any other file of the owner's.
// Pictures also go out as page-sized WebPs (?w=720|1440 on the same links, see pictures.ts), and the link
// preview's picture at a stable address (/api/shared/{token}/preview.jpg) that works exactly as long as the
// link does: chat apps fetch previews late and keep them.
import { createHash, createHmac, randomUUID } from "node:crypto";
import {
  SHARE_TOKEN_PATTERN,
  type SharedPicture,
  type SharedStoryResponse,
} from "@storyverse/contract/sharing";
import { publicUsername } from "../accounts";
import type { AppContext } from "../context";
import {
  firstNarration as firstNarrationOf,
  messageRowsPage,
  type PagedRow,
  shownMessage,
} from "../conversation";
import { createMediaSigner, linkExpiry, ownedImageByKey } from "../media";
import { Conflict, Forbidden, NotFound } from "../platform/errors";
import { ownedStoryRecord, type StoryRecord } from "../stories";
import { messageHandle, messageIdOf, openCursor, sealCursor } from "./handles";
import { offeredWidths, PICTURE_WIDTHS, scaledSize } from "./pictures";
import {
  findLiveLinkByHash,
  findLiveStoryLink,
  findNewestStoryLink,
  insertShareLink,
  liftTakedown,
  liveLinksPage,
  revokeStoryLinks,
  type ShareLinkRow,
  takeDownLink,
} from "./repo";

type SharingContext = Pick<AppContext, "db" | "clock" | "storage" | "config">;

/** How long a shared page's media links work; the page asks again for fresh ones on reload. */
export const SHARED_MEDIA_TTL_SECONDS = 15 * 60;
export const SHARED_MEDIA_INVALID = "This media link has expired or is invalid.";

export const SHARE_NOT_FOUND = "This shared story does not exist or is no longer shared.";

const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

/** A link's token: 128 bits of HMAC over its id, so it can be worked out again but never from the database alone. */
const tokenForLink = (ctx: Pick<AppContext, "config">, linkId: string) =>
  createHmac("sha256", ctx.config.sessionSecret)
    .update(`share-link\n${linkId}`)
    .digest()
    .subarray(0, 16)
    .toString("base64url");

/**
 * The live link's address, or null when it cannot be worked out again (a link made before tokens were
 * derived, or under an earlier secret): its hash then names another token.
 */
function linkUrl(ctx: Pick<AppContext, "config">, link: ShareLinkRow): string | null {
  const token = tokenForLink(ctx, link.id);
  return hashToken(token) === link.tokenHash ? shareUrl(ctx, token) : null;
}

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
  const newest = await findNewestStoryLink(ctx.db, userId, storyId);
  if (newest?.takenDownAt) {
    throw new Conflict(
      `An administrator took this story's link down: ${newest.takenDownReason ?? "no reason given"}. It cannot be shared again.`,
    );
  }
  const id = randomUUID();
  const token = tokenForLink(ctx, id);
  const now = ctx.clock.now();
  const row = await ctx.db.transaction(async (tx) => {
    await revokeStoryLinks(tx, userId, storyId, now);
    return insertShareLink(tx, {
      id,
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

/** The story's live link, to see and copy again (nothing changes); `shared: false` when there is none. */
export async function liveShare(ctx: SharingContext, userId: string, storyId: string) {
  await ownedStoryRecord(ctx, userId, storyId);
  const link = await findLiveStoryLink(ctx.db, userId, storyId);
  if (!link) {
    const newest = await findNewestStoryLink(ctx.db, userId, storyId);
    return {
      success: true as const,
      shared: false,
      url: null,
      created_at: null,
      show_username: false,
      ...(newest?.takenDownAt
        ? { taken_down: { at: newest.takenDownAt.toISOString(), reason: newest.takenDownReason ?? "" } }
        : {}),
    };
  }
  return {
    success: true as const,
    shared: true,
    url: linkUrl(ctx, link),
    created_at: link.createdAt.toISOString(),
    show_username: link.showUsername,
  };
}

/** A live link as the admin console's Moderation lists it: its token and address when they can be worked out. */
export type ModeratedLink = {
  id: string;
  token: string | null;
  url: string | null;
  userId: string;
  storyId: string;
  createdAt: Date;
  takenDown: { at: Date; reason: string } | null;
};

function moderated(ctx: Pick<AppContext, "config">, link: ShareLinkRow): ModeratedLink {
  const token = tokenForLink(ctx, link.id);
  const known = hashToken(token) === link.tokenHash;
  return {
    id: link.id,
    token: known ? token : null,
    url: known ? shareUrl(ctx, token) : null,
    userId: link.userId,
    storyId: link.storyId,
    createdAt: link.createdAt,
    takenDown: link.takenDownAt ? { at: link.takenDownAt, reason: link.takenDownReason ?? "" } : null,
  };
}

/** The token in a share link's address, or the token itself; undefined for anything else. */
export function shareTokenIn(text: string): string | undefined {
  const token = text
    .trim()
    .replace(/^.*\/s\//, "")
    .replace(/[?#].*$/, "");
  return SHARE_TOKEN_PATTERN.test(token) ? token : undefined;
}

/** Live links, newest first: of these owners, or the one with this token, when given. */
export async function liveLinks(
  ctx: SharingContext,
  filter: { userIds?: string[]; token?: string; storyIds?: string[]; takenDown?: boolean },
  after: { createdAt: Date; id: string } | undefined,
  limit: number,
): Promise<ModeratedLink[]> {
  const rows = await liveLinksPage(
    ctx.db,
    {
      ...(filter.userIds ? { userIds: filter.userIds } : {}),
      ...(filter.token ? { tokenHash: hashToken(filter.token) } : {}),
      ...(filter.storyIds ? { storyIds: filter.storyIds } : {}),
      ...(filter.takenDown ? { takenDown: true } : {}),
    },
    after,
    limit,
  );
  return rows.map((row) => moderated(ctx, row));
}

/**
 * An administrator takes a live link down: it stops working at once (every read checks the row) and its owner
 * sees the reason in the story's Share dialog. Undefined when no live link has this token.
 */
export async function takeDownShare(
  ctx: SharingContext,
  token: string,
  reason: string,
): Promise<ModeratedLink | undefined> {
  if (!SHARE_TOKEN_PATTERN.test(token)) return undefined;
  const row = await takeDownLink(ctx.db, hashToken(token), ctx.clock.now(), reason);
  return row ? moderated(ctx, row) : undefined;
}

/** An administrator lifts a takedown: the link works again. Undefined when no taken-down link has this token. */
export async function liftShareTakedown(
  ctx: SharingContext,
  token: string,
): Promise<ModeratedLink | undefined> {
  if (!SHARE_TOKEN_PATTERN.test(token)) return undefined;
  const row = await liftTakedown(ctx.db, hashToken(token));
  return row ? moderated(ctx, row) : undefined;
}

export async function revokeShare(ctx: SharingContext, userId: string, storyId: string) {
  await ownedStoryRecord(ctx, userId, storyId);
  await revokeStoryLinks(ctx.db, userId, storyId, ctx.clock.now());
  return { success: true as const, message: "The share link no longer works." };
}

export type SharedStory = { record: StoryRecord; response: SharedStoryResponse };

/** "cover", or "<message handle>-image" / "<message handle>-video". */
const MEDIA_REF = /^(cover|([A-Za-z0-9_-]{22})-(image|video))$/;

const signatureSubject = (tokenHash: string, ref: string) => `shared\n${tokenHash}\n${ref}`;

function mediaLink(ctx: SharingContext, token: string, ref: string): string {
  const exp = linkExpiry(ctx.clock.now(), SHARED_MEDIA_TTL_SECONDS);
  const sig = createMediaSigner(ctx.config.sessionSecret).sign(signatureSubject(hashToken(token), ref), exp);
  return `/api/shared/${token}/media/${ref}?exp=${exp}&sig=${sig}`;
}

/** The stable address of a shared story's link-preview picture (absolute: other services fetch it). */
export function sharedPreviewUrl(ctx: Pick<AppContext, "config">, token: string): string {
  return `${ctx.config.appUrl.replace(/\/$/, "")}/api/shared/${token}/preview.jpg`;
}

/**
 * A scene picture as the page shows it: a WebP per offered width (the same signed link with ?w=), the
 * 720 px one as src, and its size. Without a known size (an old row) there is no picture: the page falls
 * back to the original.
 */
async function pagePicture(
  ctx: SharingContext,
  userId: string,
  token: string,
  ref: string,
  imageKey: string,
): Promise<SharedPicture | null> {
  const image = await ownedImageByKey(ctx, userId, imageKey);
  if (!image?.width || !image.height) return null;
  const original = { width: image.width, height: image.height };
  const link = mediaLink(ctx, token, ref);
  // Each offered width is asked for by the smallest standard width that gives it.
  const widths = offeredWidths(image.width);
  const requested = widths.map(
    (width) => PICTURE_WIDTHS.find((wanted) => Math.min(wanted, image.width!) === width)!,
  );
  const srcset = widths.map((width, i) => `${link}&w=${requested[i]} ${width}w`).join(", ");
  return { src: `${link}&w=${requested[0]}`, srcset, ...scaledSize(original, widths[0]!) };
}

type LiveLink = ShareLinkRow;

async function liveLink(ctx: SharingContext, token: string): Promise<LiveLink> {
  if (!SHARE_TOKEN_PATTERN.test(token)) throw new NotFound(SHARE_NOT_FOUND);
  const link = await findLiveLinkByHash(ctx.db, hashToken(token));
  if (!link) throw new NotFound(SHARE_NOT_FOUND);
  return link;
}

export type SharedPageQuery = { limit: number; before?: string | undefined };

/** One message as the share page shows it: its words, and only finished media (a failed or pending turn is words alone). */
async function sharedMessage(ctx: SharingContext, link: LiveLink, token: string, row: PagedRow) {
  const id = messageHandle(ctx, link.tokenHash, row.id);
  const done = row.mediaStatus === "completed";
  const image = done && row.imageKey ? row.imageKey : null;
  return {
    id,
    role: row.role,
    content: row.content,
    mode: row.mode,
    image_url: image ? mediaLink(ctx, token, `${id}-image`) : null,
    video_url: done && row.videoKey ? mediaLink(ctx, token, `${id}-video`) : null,
    picture: image ? await pagePicture(ctx, link.userId, token, `${id}-image`, image) : null,
  };
}

/**
 * The story behind a live token, one page of its messages at a time (the newest without `before`); NotFound for
 * a malformed, unknown or revoked token alike, InvalidInput for a cursor this link did not hand out.
 */
export async function readSharedStory(
  ctx: SharingContext,
  token: string,
  query: SharedPageQuery,
): Promise<SharedStory> {
  const link = await liveLink(ctx, token);
  const record = await ownedStoryRecord(ctx, link.userId, link.storyId);
  const before = query.before ? openCursor(ctx, link.tokenHash, query.before) : undefined;
  const page = await messageRowsPage(ctx, link.userId, link.storyId, { limit: query.limit, before });
  const messages = await Promise.all(page.rows.map((row) => sharedMessage(ctx, link, token, row)));
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
      has_more: page.has_more,
      next_cursor: page.next_cursor ? sealCursor(ctx, link.tokenHash, page.next_cursor) : null,
    },
  };
}

/** The shared story's opening words, for its link preview when it has no context. */
export function firstNarration(ctx: SharingContext, record: StoryRecord): Promise<string | null> {
  return firstNarrationOf(ctx.db, record.userId, record.id);
}

/**
 * The original picture behind a live link's preview (the story's cover, as the full image rather than its
 * 512 px thumbnail); NotFound for a revoked or unknown link or a story without a picture.
 */
export async function sharedPreviewKey(ctx: SharingContext, token: string): Promise<string> {
  const link = await liveLink(ctx, token);
  const record = await ownedStoryRecord(ctx, link.userId, link.storyId);
  if (!record.thumbnailKey) throw new NotFound("Media not found");
  return (await ownedImageByKey(ctx, link.userId, record.thumbnailKey))?.key ?? record.thumbnailKey;
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
  // The handle names one message; it must be one the shared story shows now (not undone, deleted or elsewhere).
  const messageId = messageIdOf(ctx, link.tokenHash, match[2]!);
  const turn = messageId ? await shownMessage(ctx.db, link.userId, link.storyId, messageId) : undefined;
  const key =
    turn?.mediaStatus === "completed" ? (match[3] === "image" ? turn.imageKey : turn.videoKey) : null;
  if (!key) throw new NotFound("Media not found");
  return key;
}
