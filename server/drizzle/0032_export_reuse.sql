-- Exports, read-along books and films are reused while what goes into them is unchanged (issue 42 item 4,
-- decision 0131): each keeps the content hash it was made from, and the step it is on for its progress.
ALTER TABLE "story_exports" ADD COLUMN "content_hash" text;--> statement-breakpoint
ALTER TABLE "story_exports" ADD COLUMN "narration" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "story_exports" ADD COLUMN "step" text;--> statement-breakpoint
ALTER TABLE "story_films" ADD COLUMN "content_hash" text;--> statement-breakpoint
ALTER TABLE "story_films" ADD COLUMN "step" text;--> statement-breakpoint
CREATE INDEX "story_exports_hash_idx" ON "story_exports" USING btree ("story_id","content_hash");--> statement-breakpoint
CREATE INDEX "story_films_hash_idx" ON "story_films" USING btree ("story_id","content_hash");
