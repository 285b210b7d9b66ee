ALTER TABLE "stories" ADD COLUMN "summary" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "stories" ADD COLUMN "summary_through" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "stories" ADD COLUMN "summary_updated_at" timestamp with time zone;