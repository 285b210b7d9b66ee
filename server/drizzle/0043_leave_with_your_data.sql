-- Leave with your data (issue #44 item 4, decision 0143). account_exports: a player's whole-account archive,
-- made by a job (its progress, step and, once made, the file in media storage, outside the account's quota).
-- closed_account_ledger: the money facts of a deleted account's ledger, kept for accounting with the account
-- replaced by a random id (no user id, no description, nothing a person wrote).
CREATE TABLE "account_exports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"status" text NOT NULL,
	"progress" integer DEFAULT 0 NOT NULL,
	"step" text,
	"error" text,
	"storage_key" text,
	"filename" text,
	"bytes" bigint,
	"expires_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "account_exports_status_check" CHECK ("account_exports"."status" in ('queued', 'running', 'completed', 'failed'))
);--> statement-breakpoint
ALTER TABLE "account_exports" ADD CONSTRAINT "account_exports_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "account_exports_user_idx" ON "account_exports" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE TABLE "closed_account_ledger" (
	"id" uuid PRIMARY KEY NOT NULL,
	"former_account" uuid NOT NULL,
	"closed_at" timestamp with time zone NOT NULL,
	"transaction_type" text NOT NULL,
	"amount_tenths" integer NOT NULL,
	"quantity" integer NOT NULL,
	"balance_after_tenths" integer NOT NULL,
	"reference" text,
	"payment_provider" text,
	"payment_amount_cents" integer,
	"payment_currency" text,
	"created_at" timestamp with time zone NOT NULL
);--> statement-breakpoint
CREATE INDEX "closed_account_ledger_created_idx" ON "closed_account_ledger" USING btree ("created_at");
