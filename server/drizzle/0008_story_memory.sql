ALTER TABLE "stories" ADD COLUMN "memory" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "stories" ADD COLUMN "authors_note" text DEFAULT '' NOT NULL;