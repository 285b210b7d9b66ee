-- The story list pages in SQL (issue 42 item 6, decision 0134): each story row keeps when it was last played
-- or changed (the later of its newest shown message and its own updated_at), written by the turn's transaction
-- and by every change of the row, so "most recently played first" is an index walk instead of a sort in memory.
ALTER TABLE "stories" ADD COLUMN "last_activity" timestamp with time zone;--> statement-breakpoint
UPDATE "stories" SET "last_activity" = greatest(
  "stories"."updated_at",
  (SELECT max("chat_messages"."created_at") FROM "chat_messages"
    WHERE "chat_messages"."user_id" = "stories"."user_id"
      AND "chat_messages"."story_id" = "stories"."id"
      AND "chat_messages"."hidden" = false)
);--> statement-breakpoint
ALTER TABLE "stories" ALTER COLUMN "last_activity" SET NOT NULL;--> statement-breakpoint
CREATE INDEX "stories_user_activity_idx" ON "stories" USING btree ("user_id","last_activity" DESC,"id" DESC);
