// PATCH /api/profile: the interface language, kept on the account so every device and the mails follow it.
import { type Locale, type User, userSchema } from "@storyverse/contract/accounts";
import { apiRequest } from "../../lib/api-client";

export function saveLanguage(locale: Locale): Promise<User> {
  return apiRequest("/api/profile", {
    method: "PATCH",
    body: { locale },
    schema: userSchema,
    timeoutMs: 30_000,
  });
}
