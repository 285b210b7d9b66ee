// Newsletter rules: one signup per address. The answer is the same whether or not the address was already on
// the list, so the box cannot be used to learn who subscribed; a per-address limit stops it being flooded.
import type { Queryable } from "../db/client";
import type { RateLimitRule } from "../platform/rate-limit";
import { insertSignup } from "./repo";

export const NEWSLETTER_THANKS = "You're on the list! We'll write when new worlds open.";

export const newsletterPerAddress: RateLimitRule = {
  name: "newsletter-address",
  limit: 10,
  windowMs: 60 * 60_000,
};

export async function subscribe(db: Queryable, email: string): Promise<{ message: string }> {
  await insertSignup(db, email.trim().toLowerCase());
  return { message: NEWSLETTER_THANKS };
}
