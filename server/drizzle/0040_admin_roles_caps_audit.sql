-- Roles, disabled accounts and per-user spending caps (issue #44, decision 0140): every account starts a
-- player; an administrator is made by `npm run admin -- make-admin EMAIL`. A cap column left empty takes the
-- install's default from usage_caps.
ALTER TABLE "users" ADD COLUMN "role" text DEFAULT 'player' NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_role_check" CHECK ("users"."role" in ('player', 'admin'));--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "disabled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "daily_cap_tenths" integer;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "monthly_cap_tenths" integer;--> statement-breakpoint
-- The install's caps: one row, each cap empty when there is none.
CREATE TABLE "usage_caps" (
	"id" boolean PRIMARY KEY DEFAULT true NOT NULL,
	"daily_default_tenths" integer,
	"monthly_default_tenths" integer,
	"install_daily_tenths" integer,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "usage_caps_single_row" CHECK ("usage_caps"."id")
);--> statement-breakpoint
-- Every administrator's action: who, what, to whom, when and why. The target is kept by id and by the
-- address it had then, with no foreign key, so the record outlives the account.
CREATE TABLE "admin_audit" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"actor_id" uuid,
	"actor" text NOT NULL,
	"action" text NOT NULL,
	"target_id" uuid,
	"target" text,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"reason" text
);--> statement-breakpoint
-- The install's spending today (the install-wide cap) reads the ledger by time, not by user.
CREATE INDEX "credit_transactions_created_idx" ON "credit_transactions" USING btree ("created_at");
