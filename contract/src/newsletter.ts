// The landing page's email capture box.
import { z } from "zod";
import { emailSchema } from "./accounts";

export const newsletterSignupRequestSchema = z.object({ email: emailSchema });
export type NewsletterSignupRequest = z.infer<typeof newsletterSignupRequestSchema>;

export const newsletterSignupResponseSchema = z.object({
  subscribed: z.literal(true),
  message: z.string(),
});
export type NewsletterSignupResponse = z.infer<typeof newsletterSignupResponseSchema>;
