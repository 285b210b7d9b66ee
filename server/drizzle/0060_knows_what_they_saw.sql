-- Characters know what they saw (issue 43 item 3, decision 0165): each message records the characters present
-- when it was written (a group's present cards, a character teller's card; null: the narrator's, seen by all);
-- a story may keep each speaker of a group to what they were present for. The summary records who witnessed
-- every message it folds (null: everyone), so a character who missed a folded scene is not told it.
ALTER TABLE "chat_messages" ADD COLUMN "present" jsonb;--> statement-breakpoint
ALTER TABLE "stories" ADD COLUMN "knows_what_they_saw" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "stories" ADD COLUMN "summary_witnesses" jsonb;
