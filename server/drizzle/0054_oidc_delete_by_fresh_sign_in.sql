-- Deleting an account confirmed by a fresh sign-in at the OIDC provider (issue 44 item 4, decision 0158): a
-- provider sign-in under way now says what it is for, and one begun to delete an account names the account
-- and the app session that began it, so its callback can delete that account only, from that session only.
ALTER TABLE "oidc_logins" ADD COLUMN "purpose" text DEFAULT 'sign_in' NOT NULL;--> statement-breakpoint
ALTER TABLE "oidc_logins" ADD COLUMN "user_id" uuid;--> statement-breakpoint
ALTER TABLE "oidc_logins" ADD COLUMN "session_token_hash" text;--> statement-breakpoint
ALTER TABLE "oidc_logins" ADD CONSTRAINT "oidc_logins_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oidc_logins" ADD CONSTRAINT "oidc_logins_purpose_check" CHECK ("oidc_logins"."purpose" in ('sign_in', 'delete_account'));
