// The admin console's API (issue #44, decision 0140): users, credits, caps and the audit log. Every
// /api/admin/* call answers 404 to anyone but an administrator, as if it did not exist.
import { z } from "zod";
import { errorBodySchema } from "./errors";

export const ROLES = ["player", "admin"] as const;
export const roleSchema = z.enum(ROLES);
export type Role = z.infer<typeof roleSchema>;

export const ADMIN_PAGE_SIZE = 25;
/** A reason is required for every credit change; it is shown in the player's history and the audit log. */
export const ADMIN_REASON_MAX = 200;
/** Largest single grant or take-back, so a typo cannot mint (or wipe) a fortune. */
export const MAX_ADMIN_CREDITS = 1_000_000;

/** A cap in credits (one decimal), or null: none (install) or the install's default (an account). */
const capSchema = z
  .number()
  .min(0)
  .max(MAX_ADMIN_CREDITS)
  .refine((value) => Math.abs(value * 10 - Math.round(value * 10)) < 1e-9, {
    message: "A cap has at most one decimal",
  })
  .nullable();

export const adminUsersQuerySchema = z.object({
  q: z.string().trim().max(200).optional().describe("Part of an email or username, or a whole account id"),
  cursor: z.string().max(200).optional().describe("next_cursor of the previous page"),
});
export type AdminUsersQuery = z.infer<typeof adminUsersQuerySchema>;

export const adminUserSummarySchema = z.object({
  id: z.string(),
  email: z.string(),
  username: z.string(),
  role: roleSchema,
  verified: z.boolean(),
  disabled: z.boolean(),
  created_at: z.string(),
});
export type AdminUserSummary = z.infer<typeof adminUserSummarySchema>;

export const adminUsersResponseSchema = z.object({
  users: z.array(adminUserSummarySchema),
  next_cursor: z.string().nullable(),
});
export type AdminUsersResponse = z.infer<typeof adminUsersResponseSchema>;

export const adminUserSchema = adminUserSummarySchema.extend({
  /** Credits left; -1 when unlimited. */
  balance: z.number(),
  unlimited: z.boolean(),
  storage_used_bytes: z.number(),
  storage_limit_bytes: z.number().nullable(),
  stories: z.number(),
  /** Live sessions (signed-in devices). */
  sessions: z.number(),
  /** When the account was last seen using the app (to within an hour), or null. */
  last_seen_at: z.string().nullable(),
  /** The account's own caps in credits; null takes the install's default. */
  daily_cap: z.number().nullable(),
  monthly_cap: z.number().nullable(),
  /** Credits spent today and this month (UTC), net of refunds. */
  spent_today: z.number(),
  spent_this_month: z.number(),
  /** The cap the account has reached now, if any. */
  capped: z.enum(["daily", "monthly", "install"]).nullable(),
});
export type AdminUser = z.infer<typeof adminUserSchema>;

export const adminUserParamsSchema = z.object({ id: z.uuid() });

export const adminUserUpdateSchema = z
  .object({
    disabled: z.boolean().optional(),
    role: roleSchema.optional(),
    daily_cap: capSchema.optional(),
    monthly_cap: capSchema.optional(),
    verified: z.literal(true).optional().describe("Marks the email verified"),
    unlimited: z.boolean().optional(),
    reason: z.string().trim().max(ADMIN_REASON_MAX).optional(),
  })
  .strict();
export type AdminUserUpdate = z.infer<typeof adminUserUpdateSchema>;

export const adminCreditsRequestSchema = z.object({
  amount: z
    .number()
    .refine((value) => value !== 0 && Math.abs(value) <= MAX_ADMIN_CREDITS, {
      message: `amount must be non-zero and at most ${MAX_ADMIN_CREDITS} either way`,
    })
    .refine((value) => Math.abs(value * 10 - Math.round(value * 10)) < 1e-9, {
      message: "amount has at most one decimal",
    })
    .describe("Credits to grant; negative takes back"),
  reason: z.string().trim().min(1, "A reason is required").max(ADMIN_REASON_MAX),
});
export type AdminCreditsRequest = z.infer<typeof adminCreditsRequestSchema>;

export const adminSessionsRevokedSchema = z.object({ revoked: z.number() });

export const adminCapsSchema = z.object({
  /** Each account's daily cap in credits unless it has its own; null: none. */
  daily_default: capSchema,
  monthly_default: capSchema,
  /** Credits the whole install may spend in a UTC day; null: none. */
  install_daily: capSchema,
});
export type AdminCaps = z.infer<typeof adminCapsSchema>;

export const adminCapsResponseSchema = adminCapsSchema.extend({
  /** Credits the install spent today (UTC). */
  install_spent_today: z.number(),
  /** Accounts that have reached their daily or monthly cap now (at most one page). */
  capped_users: z.array(
    z.object({ id: z.string(), email: z.string(), cap: z.enum(["daily", "monthly"]), limit: z.number() }),
  ),
});
export type AdminCapsResponse = z.infer<typeof adminCapsResponseSchema>;

export const adminAuditQuerySchema = z.object({ cursor: z.string().max(40).optional() });

export const adminAuditEntrySchema = z.object({
  id: z.string(),
  at: z.string(),
  actor: z.string(),
  actor_id: z.string().nullable(),
  action: z.string(),
  target: z.string().nullable(),
  target_id: z.string().nullable(),
  details: z.record(z.string(), z.unknown()),
  reason: z.string().nullable(),
});
export type AdminAuditEntry = z.infer<typeof adminAuditEntrySchema>;

export const adminAuditResponseSchema = z.object({
  entries: z.array(adminAuditEntrySchema),
  next_cursor: z.string().nullable(),
});
export type AdminAuditResponse = z.infer<typeof adminAuditResponseSchema>;

/**
 * The 429 of a call that charges credits: a rate limit (code rate_limited), or a spending cap (code
 * usage_cap) with the cap, its limit in credits and when it resets (UTC midnight, or the first of next month).
 */
export const paidWorkTooManySchema = errorBodySchema.extend({
  cap: z.enum(["daily", "monthly", "install"]).optional(),
  limit: z.number().optional(),
  resets_at: z.string().optional(),
});

// --- Usage, Health, Moderation, forced reset and deletion (decision 0150) ---

/** What the usage report groups the ledger's usage kinds into (the console's charts and the CSV's columns). */
export const USAGE_CATEGORIES = ["text", "pictures", "clips", "speech", "films", "other"] as const;
export type UsageCategory = (typeof USAGE_CATEGORIES)[number];
/** The longest range one usage report covers, in days (both ends counted). */
export const USAGE_MAX_DAYS = 366;
/** The report's days when none are given: the last 30 (UTC), today included. */
export const USAGE_DEFAULT_DAYS = 30;
/** group_by=user lists the accounts that spent most, at most this many. */
export const USAGE_MAX_USERS = 100;

const isoDay = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "must be a date like 2026-11-29")
  .refine(
    (value) => {
      const at = new Date(`${value}T00:00:00Z`);
      return !Number.isNaN(at.getTime()) && at.toISOString().slice(0, 10) === value;
    },
    { message: "must be a real date" },
  );

export const adminUsageQuerySchema = z.object({
  from: isoDay.optional().describe("First UTC day (YYYY-MM-DD); 29 days before `to` when absent"),
  to: isoDay.optional().describe("Last UTC day, included (YYYY-MM-DD); today when absent"),
  group_by: z.enum(["day", "kind", "user"]).default("day"),
  user_id: z.uuid("user_id must be an account id").optional().describe("Only this account's spending"),
  format: z.enum(["json", "csv"]).default("json"),
});
export type AdminUsageQuery = z.infer<typeof adminUsageQuerySchema>;

const byCategorySchema = z.object(
  Object.fromEntries(USAGE_CATEGORIES.map((category) => [category, z.number()])) as Record<
    UsageCategory,
    z.ZodNumber
  >,
);

export const adminUsageRowSchema = z.object({
  /** The day (YYYY-MM-DD), the category, or the account id. */
  key: z.string(),
  /** The account's email for group_by=user (null once deleted); the key otherwise. */
  label: z.string().nullable(),
  /** Credits spent net of refunds. */
  credits: z.number(),
  /** Things paid for (a batch of 4 pictures is 4), refunds not taken off; unlimited accounts' uses count too. */
  uses: z.number(),
  by_kind: byCategorySchema,
});
export type AdminUsageRow = z.infer<typeof adminUsageRowSchema>;

export const adminUsageResponseSchema = z.object({
  from: z.string(),
  to: z.string(),
  group_by: z.enum(["day", "kind", "user"]),
  user_id: z.string().nullable(),
  total_credits: z.number(),
  total_uses: z.number(),
  rows: z.array(adminUsageRowSchema),
});
export type AdminUsageResponse = z.infer<typeof adminUsageResponseSchema>;

export const adminVendorHealthSchema = z.object({
  vendor: z.string(),
  kind: z.string(),
  calls: z.number(),
  errors: z.number(),
  /** errors / calls, 0 to 1. */
  error_rate: z.number(),
  p50_ms: z.number().nullable(),
  p95_ms: z.number().nullable(),
});

export const adminHealthSchema = z.object({
  /** Since when the vendor figures count (an hour ago, or the install's first figure or process if later). */
  since: z.string(),
  /** Every live process's calls, summed (decision 0159). */
  vendors: z.array(adminVendorHealthSchema),
  queue: z.object({
    /** Jobs not finished by kind and state (created, retry, active). */
    waiting: z.array(z.object({ kind: z.string(), state: z.string(), count: z.number() })),
    failed: z.array(
      z.object({
        id: z.string(),
        kind: z.string(),
        failed_at: z.string().nullable(),
        error: z.string().nullable(),
      }),
    ),
  }),
  storage: z.object({ used_bytes: z.number(), accounts: z.number() }),
  /** Summed over every live process. */
  event_streams_open: z.number(),
  /**
   * The server processes that reported within the last two minutes (decision 0159): all of them, those that
   * serve the API and those that run jobs (a process doing both counts in each).
   */
  processes: z.object({ reporting: z.number(), http: z.number(), worker: z.number() }),
});
export type AdminHealth = z.infer<typeof adminHealthSchema>;

export const adminJobParamsSchema = z.object({ kind: z.string().min(1).max(100), id: z.uuid() });
export const adminJobRetriedSchema = z.object({ retried: z.literal(true) });

export const adminSharesQuerySchema = z.object({
  q: z
    .string()
    .trim()
    .max(300)
    .optional()
    .describe(
      "A share link or its token, part of the owner's email or username, or part of the story's title",
    ),
  /** live: links that work; taken_down: links an administrator took down (which can be lifted). */
  status: z
    .enum(["live", "taken_down"], { error: () => "status must be live or taken_down" })
    .default("live"),
  cursor: z.string().max(200).optional(),
});
export type AdminSharesQuery = z.infer<typeof adminSharesQuerySchema>;

export const adminShareSchema = z.object({
  token: z.string().nullable().describe("null for a link made before links could be shown again"),
  url: z.string().nullable(),
  story_id: z.string(),
  story_title: z.string(),
  owner_id: z.string(),
  owner_email: z.string(),
  created_at: z.string(),
  /** When and why an administrator took the link down; null for a live link. */
  taken_down: z.object({ at: z.string(), reason: z.string() }).nullable(),
});
export type AdminShare = z.infer<typeof adminShareSchema>;

export const adminSharesResponseSchema = z.object({
  shares: z.array(adminShareSchema),
  next_cursor: z.string().nullable(),
});
export type AdminSharesResponse = z.infer<typeof adminSharesResponseSchema>;

export const adminShareParamsSchema = z.object({ token: z.string().max(64) });
export const adminTakeDownSchema = z.object({
  reason: z.string().trim().min(1, "A reason is required: the owner sees it").max(ADMIN_REASON_MAX),
});
export const adminTakenDownSchema = z.object({ taken_down: z.literal(true), story_title: z.string() });
export const adminLiftTakedownSchema = z
  .object({ reason: z.string().trim().max(ADMIN_REASON_MAX).optional() })
  .nullish();
export const adminTakedownLiftedSchema = z.object({ lifted: z.literal(true), story_title: z.string() });

export const adminForceResetSchema = z
  .object({ reason: z.string().trim().max(ADMIN_REASON_MAX).optional() })
  // A POST with no body at all is a reset without a reason.
  .nullish();
export const adminForcedResetSchema = z.object({ sessions_ended: z.number(), mail_sent_to: z.string() });

export const adminDeleteUserSchema = z.object({
  reason: z.string().trim().min(1, "A reason is required").max(ADMIN_REASON_MAX),
  /** The account's email typed again, so a slip of the mouse deletes nobody. */
  confirm_email: z.string().trim().max(320),
});
/** The 200 of a deletion when the install keeps no archive (DELETED_ACCOUNT_ARCHIVE_DAYS=0): done at once. */
export const adminUserDeletedSchema = z.object({ deleted: z.literal(true), ledger_rows_kept: z.number() });

// Archives of deleted accounts (decision 0157): when the install keeps them, an administrator's deletion disables
// the account at once, then the worker makes its data export (the player's own archive, decision 0143), keeps it
// for the operator for DELETED_ACCOUNT_ARCHIVE_DAYS and deletes the account.

/**
 * queued: the account is disabled and waits for the worker; building: its archive is being made (the account is
 * deleted right after); kept: the account is deleted and its archive kept until expires_at; failed: the archive
 * could not be made, the account stays disabled (not deleted) until it is retried or the deletion is cancelled.
 */
export const ADMIN_ARCHIVE_STATUSES = ["queued", "building", "kept", "failed"] as const;

export const adminArchiveSchema = z.object({
  id: z.string(),
  status: z.enum(ADMIN_ARCHIVE_STATUSES),
  /** 0 to 100 while it is made. */
  progress: z.number(),
  step: z.string().nullable(),
  error: z.string().nullable(),
  /** The former account's address and username, kept with the archive so the operator can answer a request. */
  email: z.string(),
  username: z.string(),
  /** The account's id while it exists (queued, building, failed); null once it is deleted. */
  user_id: z.string().nullable(),
  /** The administrator who deleted it (their address now; null when that account is gone too). */
  deleted_by: z.string().nullable(),
  reason: z.string().nullable(),
  /** When the deletion was ordered, when the account was deleted, and when the archive is removed. */
  created_at: z.string(),
  deleted_at: z.string().nullable(),
  expires_at: z.string().nullable(),
  filename: z.string().nullable(),
  bytes: z.number().nullable(),
});
export type AdminArchive = z.infer<typeof adminArchiveSchema>;

/** The 202 of a deletion when the install keeps archives: the account is disabled; follow the archive. */
export const adminUserDeletingSchema = z.object({
  deleting: z.literal(true),
  /** Days the archive is kept once made (DELETED_ACCOUNT_ARCHIVE_DAYS). */
  kept_days: z.number(),
  archive: adminArchiveSchema,
});
export type AdminUserDeleting = z.infer<typeof adminUserDeletingSchema>;

export const adminArchivesQuerySchema = z.object({
  cursor: z.string().max(200).optional().describe("next_cursor of the previous page"),
});
export const adminArchivesResponseSchema = z.object({
  archives: z.array(adminArchiveSchema),
  next_cursor: z.string().nullable(),
});
export type AdminArchivesResponse = z.infer<typeof adminArchivesResponseSchema>;
export const adminArchiveParamsSchema = z.object({ id: z.uuid() });
export const adminArchiveResponseSchema = z.object({ archive: adminArchiveSchema });
export const adminArchiveDownloadSchema = z.object({
  /** A signed link that expires (MEDIA_URL_TTL_SECONDS), as the player's own archive has. */
  download_url: z.string(),
  filename: z.string(),
  bytes: z.number(),
});
export const adminArchiveRemoveSchema = z
  .object({ reason: z.string().trim().max(ADMIN_REASON_MAX).optional() })
  .nullish();
export const adminArchiveRemovedSchema = z.object({ removed: z.literal(true) });

/** Enabling an account while its deletion is being made (409): the job would delete it anyway. */
export const ENABLE_WHILE_DELETING_MESSAGE =
  "This account is being deleted: its archive is being made. It can be enabled again only if the deletion fails.";
