-- Who tells the story (issue #43 items 1 and 7, decision 0154): "narrator" (the second-person narrator) or
-- "character" (the AI plays one of the story's cards in the first person). teller_card_id is that card; a
-- deleted card leaves the story with no character, which plays as the narrator. A narrator message written in
-- character mode records its speaker ({"card_id", "name"}, the name as it was); null: the narrator.
ALTER TABLE "stories" ADD COLUMN "teller" text DEFAULT 'narrator' NOT NULL;--> statement-breakpoint
ALTER TABLE "stories" ADD COLUMN "teller_card_id" uuid;--> statement-breakpoint
ALTER TABLE "stories" ADD CONSTRAINT "stories_teller_card_id_story_cards_id_fk" FOREIGN KEY ("teller_card_id") REFERENCES "public"."story_cards"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_messages" ADD COLUMN "speaker" jsonb;
