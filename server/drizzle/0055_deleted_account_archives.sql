-- Archives of deleted accounts (issue #44 item 3, decision 0157): when an administrator deletes an account, its
-- data export (the player's own archive, decision 0143) is made first and kept for the operator for
-- DELETED_ACCOUNT_ARCHIVE_DAYS, then removed with this row. The former account's address and username are kept
-- deliberately for that time. Nothing cascades from users: user_id (set while the deletion is pending or failed)
-- and deleted_by become null when those accounts go. A unique index allows one pending deletion per account
-- (PostgreSQL's unique index treats nulls as distinct, so any number of deleted accounts' rows are kept).
CREATE TABLE "deleted_account_archives" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid,
	"email" text NOT NULL,
	"username" text NOT NULL,
	"status" text NOT NULL,
	"progress" integer DEFAULT 0 NOT NULL,
	"step" text,
	"error" text,
	"storage_key" text,
	"filename" text,
	"bytes" bigint,
	"deleted_by" uuid,
	"reason" text,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"deleted_at" timestamp with time zone,
	"expires_at" timestamp with time zone,
	CONSTRAINT "deleted_account_archives_status_check" CHECK ("deleted_account_archives"."status" in ('queued', 'building', 'kept', 'failed'))
);--> statement-breakpoint
ALTER TABLE "deleted_account_archives" ADD CONSTRAINT "deleted_account_archives_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deleted_account_archives" ADD CONSTRAINT "deleted_account_archives_deleted_by_users_id_fk" FOREIGN KEY ("deleted_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "deleted_account_archives_user_unique" ON "deleted_account_archives" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "deleted_account_archives_created_idx" ON "deleted_account_archives" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "deleted_account_archives_expires_idx" ON "deleted_account_archives" USING btree ("expires_at");
