-- The rest of the admin console (issue #44 item 3, decision 0150). A share link an administrator took down keeps
-- when and why, which its owner sees in the story's Share dialog (the story cannot be shared again). An account
-- whose password an administrator reset must set a new one through the mailed link before signing in again.
ALTER TABLE "share_links" ADD COLUMN "taken_down_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "share_links" ADD COLUMN "taken_down_reason" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "password_reset_required_at" timestamp with time zone;
