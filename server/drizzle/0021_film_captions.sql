-- The narrated film (issue #31): its WebVTT captions beside the video, and what its vendor narration was charged
-- (refunded if the film fails).
ALTER TABLE "story_films" ADD COLUMN "captions_key" text;--> statement-breakpoint
ALTER TABLE "story_films" ADD COLUMN "charged_tenths" integer DEFAULT 0 NOT NULL;