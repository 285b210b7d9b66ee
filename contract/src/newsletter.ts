// The landing page's email capture box ("Get early access to new worlds").
import { z } from "zod";

export const EMAIL_MAX_LENGTH = 254;

export const newsletterSignupRequestSchema = z.object({
  email: z.string().trim().max(EMAIL_MAX_LENGTH).pipe(z.email("Please enter a valid email address")),
});
export type NewsletterSignupRequest = z.infer<typeof newsletterSignupRequestSchema>;

export const newsletterSignupResponseSchema = z.object({
  subscribed: z.literal(true),
  message: z.string(),
});
export type NewsletterSignupResponse = z.infer<typeof newsletterSignupResponseSchema>;
