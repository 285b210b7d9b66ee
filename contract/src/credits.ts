// Credit prices and balances. One place for every price: the server charges them, the web shows them.
import { z } from "zod";

export const CREDIT_COSTS = {
  chat: 0.5,
  image: 1.5,
  /** Editing a picture (decision 0145): a repainted region, an extended canvas, a variation, or x2 the size. */
  image_inpaint: 1.5,
  image_outpaint: 1.5,
  image_vary: 1.5,
  image_upscale: 1.0,
  video: 3.0,
  advisor: 0.5,
  transcription: 0,
  /** The story's film joins clips and pictures that were already paid for. */
  film: 0,
  /** Vendor speech, per 1,000 characters spoken (voice.ts); offline speech is free. */
  speech: 0.5,
} as const;
export type CreditKind = keyof typeof CREDIT_COSTS;
/** Anything without a listed price. */
export const UNKNOWN_KIND_COST = 1;
export const UNLIMITED_CREDITS = -1;

/** The price of `quantity` of a kind, with decimals kept (4 images cost 6). */
export function creditCost(kind: string, quantity = 1): number {
  const unit = kind in CREDIT_COSTS ? CREDIT_COSTS[kind as CreditKind] : UNKNOWN_KIND_COST;
  return Math.round(unit * quantity * 10) / 10;
}

/** 'credit' for exactly 1, otherwise 'credits'; decimals kept ("1.5 credits"). */
export function formatCredits(amount: number): string {
  return `${amount} ${amount === 1 ? "credit" : "credits"}`;
}

export const quotaInfoSchema = z.object({
  remaining: z.number().describe("Credits left after this call; -1 means unlimited"),
  unlimited: z.boolean(),
  cost: z.number().describe("The price of what was asked for"),
  charged: z.number().describe("What was actually taken (0 for unlimited users)"),
});
export type QuotaInfo = z.infer<typeof quotaInfoSchema>;

export const insufficientCreditsSchema = z.object({
  detail: z.string().describe("Starts with 'Insufficient credits'"),
  code: z.literal("insufficient_credits"),
  quota_exceeded: z.literal(true),
  quota_info: quotaInfoSchema,
});

export const creditBalanceSchema = z.object({
  remaining: z.number(),
  unlimited: z.boolean(),
});
export type CreditBalance = z.infer<typeof creditBalanceSchema>;

export const quotaResponseSchema = z.object({
  remaining: z.number(),
  unlimited: z.boolean(),
  costs: z.record(z.string(), z.number()),
});
export type QuotaResponse = z.infer<typeof quotaResponseSchema>;
