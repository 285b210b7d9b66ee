-- Group scenes (issue #43 item 2, decision 0164): a story told by "group" has 2 to 8 of its cards present
-- (group_card_ids, in order), an order of speakers (natural, round_robin, manual or all) and muted characters
-- who stay present but never speak. A card's talkativeness (0..1) weighs the natural order's draw.
ALTER TABLE "stories" ADD COLUMN "group_card_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL;--> statement-breakpoint
ALTER TABLE "stories" ADD COLUMN "speaker_order" text DEFAULT 'natural' NOT NULL;--> statement-breakpoint
ALTER TABLE "stories" ADD COLUMN "muted_card_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL;--> statement-breakpoint
ALTER TABLE "story_cards" ADD COLUMN "talkativeness" double precision DEFAULT 0.5 NOT NULL;
