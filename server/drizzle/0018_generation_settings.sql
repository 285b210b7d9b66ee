-- Generation settings per story (issue #26): output length, randomness (temperature), the text model, the Author's
-- Note depth, the scenes' art style and aspect ratio, and the composer's default input mode (Do / Say / Story). The
-- defaults are what every turn did before.
ALTER TABLE "stories" ADD COLUMN "output_length" text DEFAULT 'medium' NOT NULL;--> statement-breakpoint
ALTER TABLE "stories" ADD COLUMN "temperature" double precision DEFAULT 0.9 NOT NULL;--> statement-breakpoint
ALTER TABLE "stories" ADD COLUMN "text_model" text;--> statement-breakpoint
ALTER TABLE "stories" ADD COLUMN "authors_note_depth" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "stories" ADD COLUMN "art_style" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "stories" ADD COLUMN "aspect_ratio" text DEFAULT '4:3' NOT NULL;--> statement-breakpoint
ALTER TABLE "stories" ADD COLUMN "input_mode" text DEFAULT 'story' NOT NULL;
