// Storage quotas (decision 0122): what each account keeps in media storage and how much it may keep. Every
// object under "u/<userId>/" has a row in media_objects with its size, and media_storage keeps the account's
// total beside them, so reading an account's use is one primary-key lookup however large its library is.
//
// The metered store (storage/metered.ts) writes these rows around every put and delete, whichever module
// stores the object (turn media, Studio results, uploads, portraits, restored media, exports, narration), and
// refuses a put that would pass the quota before any byte is kept. Paid work calls assertStorageAvailable
// before it charges, so a full account is refused without losing credits.
//
// On PGlite a store call must not run inside a transaction on the app's handle (the metered store's own
// statements would wait for it): inside one, use storageWithin(ctx.storage, tx).
import { formatStorageBytes } from "@storyverse/contract/media";
import { eq, inArray, sql } from "drizzle-orm";
import type { AppContext } from "../context";
import type { Queryable } from "../db/client";
import { mediaObjects, mediaStorage } from "../db/schema";
import { DomainError } from "../platform/errors";

const MB = 1024 * 1024;

export type QuotaContext = { db: Queryable; config: { mediaQuotaMb: number } };

export type StorageUsage = { usedBytes: number; limitBytes: number | null };

/** The account's storage is full, or this would pass its quota: 413 with what is used and what is allowed. */
export class StorageFull extends DomainError {
  constructor(usage: StorageUsage & { limitBytes: number }, incomingBytes: number) {
    const used = `${formatStorageBytes(usage.usedBytes)} of ${formatStorageBytes(usage.limitBytes)}`;
    const left = Math.max(0, usage.limitBytes - usage.usedBytes);
    const detail =
      left === 0 || incomingBytes === 0
        ? `Your media storage is full (${used}). Delete items from the Gallery to make room.`
        : `This needs ${formatStorageBytes(incomingBytes)} but your media storage has ${formatStorageBytes(left)} left (${used} used). Delete items from the Gallery to make room.`;
    super("storage_full", detail, {
      extra: { used_bytes: usage.usedBytes, limit_bytes: usage.limitBytes },
    });
  }
}

/** The account's quota in bytes: its own (if an administrator set one) or the install's; null = unlimited. */
export function limitBytesOf(quotaMb: number | null | undefined, defaultQuotaMb: number): number | null {
  const mb = quotaMb ?? defaultQuotaMb;
  return mb === 0 ? null : mb * MB;
}

/** The owner of a media key ("u/<userId>/..."), or undefined for keys no account owns (voice samples). */
export function ownerOfKey(key: string): string | undefined {
  const match = /^u\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\//i.exec(key);
  return match?.[1]?.toLowerCase();
}

/** What the account keeps and may keep: one primary-key lookup. */
export async function storageUsage(ctx: QuotaContext, userId: string): Promise<StorageUsage> {
  const [row] = await ctx.db
    .select({ usedBytes: mediaStorage.usedBytes, quotaMb: mediaStorage.quotaMb })
    .from(mediaStorage)
    .where(eq(mediaStorage.userId, userId));
  return {
    usedBytes: Math.max(0, row?.usedBytes ?? 0),
    limitBytes: limitBytesOf(row?.quotaMb, ctx.config.mediaQuotaMb),
  };
}

/** What every account keeps together, and how many accounts keep anything (the admin console's Health). */
export async function installStorageUsage(ctx: Pick<QuotaContext, "db">) {
  const [row] = await ctx.db
    .select({
      usedBytes: sql<number>`coalesce(sum(greatest(${mediaStorage.usedBytes}, 0)), 0)::bigint`,
      accounts: sql<number>`count(*) filter (where ${mediaStorage.usedBytes} > 0)::int`,
    })
    .from(mediaStorage);
  return { usedBytes: Number(row?.usedBytes ?? 0), accounts: Number(row?.accounts ?? 0) };
}

/**
 * Throws StorageFull when `incomingBytes` more would pass the account's quota, or (for work whose size is
 * not known yet, incomingBytes 0) when the account is already full. A pre-check: the store's own check at
 * each put stays the guard.
 */
export async function assertStorageAvailable(
  ctx: QuotaContext,
  userId: string,
  incomingBytes: number,
): Promise<void> {
  const usage = await storageUsage(ctx, userId);
  if (usage.limitBytes === null) return;
  if (usage.usedBytes + incomingBytes > usage.limitBytes || usage.usedBytes >= usage.limitBytes) {
    throw new StorageFull({ ...usage, limitBytes: usage.limitBytes }, incomingBytes);
  }
}

/** Sets an account's own quota in MB (0: unlimited), or null to follow the install's MEDIA_QUOTA_MB. */
export async function setStorageQuota(q: Queryable, userId: string, quotaMb: number | null): Promise<void> {
  await q
    .insert(mediaStorage)
    .values({ userId, quotaMb })
    .onConflictDoUpdate({ target: mediaStorage.userId, set: { quotaMb } });
}

/** The account's row, created if missing and locked for the caller's transaction. */
async function lockedAccount(tx: Queryable, userId: string) {
  const [row] = await tx
    .insert(mediaStorage)
    .values({ userId })
    .onConflictDoUpdate({ target: mediaStorage.userId, set: { usedBytes: sql`${mediaStorage.usedBytes}` } })
    .returning({ usedBytes: mediaStorage.usedBytes, quotaMb: mediaStorage.quotaMb });
  return row!;
}

/** A key under the id of no account (a user deleted meanwhile): its bytes belong to no one to count. */
function isNoSuchAccount(error: unknown): boolean {
  for (let e: unknown = error; e instanceof Error; e = e.cause) {
    if ((e as { code?: unknown }).code === "23503") return true;
  }
  return false;
}

/**
 * Counts `bytes` under `key` for its owner before the object is stored: refused with StorageFull when
 * `limit` says so and the account would pass its quota. A key stored again counts its new size only.
 */
export async function reserveStored(
  q: Queryable,
  defaultQuotaMb: number,
  owner: string,
  key: string,
  bytes: number,
  limit: boolean,
): Promise<void> {
  await q
    .transaction(async (tx) => {
      const account = await lockedAccount(tx, owner);
      const [previous] = await tx
        .select({ bytes: mediaObjects.bytes })
        .from(mediaObjects)
        .where(eq(mediaObjects.key, key));
      const growth = bytes - (previous?.bytes ?? 0);
      const limitBytes = limitBytesOf(account.quotaMb, defaultQuotaMb);
      if (limit && limitBytes !== null && growth > 0 && account.usedBytes + growth > limitBytes) {
        throw new StorageFull({ usedBytes: account.usedBytes, limitBytes }, bytes);
      }
      await tx
        .update(mediaStorage)
        .set({ usedBytes: Math.max(0, account.usedBytes + growth) })
        .where(eq(mediaStorage.userId, owner));
      await tx
        .insert(mediaObjects)
        .values({ key, userId: owner, bytes })
        .onConflictDoUpdate({ target: mediaObjects.key, set: { bytes } });
    })
    .catch((error: unknown) => {
      if (!isNoSuchAccount(error)) throw error;
    });
}

/** The account's use and quota, for a stream of unknown size; StorageFull when it is full already. */
export async function usageWithRoom(
  q: Queryable,
  defaultQuotaMb: number,
  owner: string,
): Promise<StorageUsage> {
  const [row] = await q
    .select({ usedBytes: mediaStorage.usedBytes, quotaMb: mediaStorage.quotaMb })
    .from(mediaStorage)
    .where(eq(mediaStorage.userId, owner));
  const usedBytes = Math.max(0, row?.usedBytes ?? 0);
  const limitBytes = limitBytesOf(row?.quotaMb, defaultQuotaMb);
  if (limitBytes !== null && usedBytes >= limitBytes) throw new StorageFull({ usedBytes, limitBytes }, 0);
  return { usedBytes, limitBytes };
}

/** Stops counting the objects under `keys` (removed from storage, or never stored): one statement. */
export async function forgetStored(q: Queryable, keys: string[]): Promise<void> {
  if (keys.length === 0) return;
  await q.execute(sql`
    with gone as (
      delete from ${mediaObjects} where ${inArray(mediaObjects.key, keys)} returning user_id, bytes
    ), per_user as (
      select user_id, sum(bytes) as bytes from gone group by user_id
    )
    update ${mediaStorage} set used_bytes = greatest(0, ${mediaStorage}.used_bytes - per_user.bytes)
    from per_user where ${mediaStorage}.user_id = per_user.user_id`);
}

/** The store to use inside a transaction `q` (its counting joins the transaction; see the top comment). */
export function storageWithin(storage: AppContext["storage"], q: Queryable): AppContext["storage"] {
  const metered = storage as { within?: (q: Queryable) => AppContext["storage"] };
  return typeof metered.within === "function" ? metered.within(q) : storage;
}
