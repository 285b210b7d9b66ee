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
