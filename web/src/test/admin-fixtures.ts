// An account as the admin console's calls answer it: one player, for the console's component tests.
import type { AdminUser } from "@storyverse/contract/admin";

export const ADMIN_LISTED_PLAYER: AdminUser = {
  id: "11111111-1111-4111-8111-111111111111",
  email: "mara@example.com",
  username: "mara",
  role: "player",
  verified: true,
  disabled: false,
  created_at: "2026-01-01T00:00:00.000Z",
  balance: 15,
  unlimited: false,
  storage_used_bytes: 0,
  storage_limit_bytes: null,
  stories: 2,
  sessions: 1,
  last_seen_at: null,
  daily_cap: null,
  monthly_cap: null,
  spent_today: 0,
  spent_this_month: 0,
  capped: null,
};
