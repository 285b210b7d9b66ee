-- Richer lore rules (issue #27): Story Cards gain secondary keys with selective logic, constant entries, insertion
-- order, priority, case sensitivity and the imported source's unmodelled fields; stories gain the narrator's
-- instructions from an imported card, the creator's notes, the character's name and the lore budget and scan depth.
ALTER TABLE "stories" ADD COLUMN "narrator_instructions" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "stories" ADD COLUMN "post_history_instructions" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "stories" ADD COLUMN "creator_notes" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "stories" ADD COLUMN "character_name" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "stories" ADD COLUMN "lore_budget_percent" integer DEFAULT 50 NOT NULL;--> statement-breakpoint
ALTER TABLE "stories" ADD COLUMN "lore_scan_depth" integer DEFAULT 4 NOT NULL;--> statement-breakpoint
ALTER TABLE "story_cards" ADD COLUMN "secondary_triggers" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "story_cards" ADD COLUMN "selective_logic" text DEFAULT 'and_any' NOT NULL;--> statement-breakpoint
ALTER TABLE "story_cards" ADD COLUMN "constant" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "story_cards" ADD COLUMN "insertion_order" integer DEFAULT 100 NOT NULL;--> statement-breakpoint
ALTER TABLE "story_cards" ADD COLUMN "priority" integer DEFAULT 10 NOT NULL;--> statement-breakpoint
ALTER TABLE "story_cards" ADD COLUMN "case_sensitive" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "story_cards" ADD COLUMN "extensions" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "story_cards" ADD COLUMN "character_card" jsonb;
