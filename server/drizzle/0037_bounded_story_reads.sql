-- A story's Redo stack (its undone messages: a few) found without reading the story's history: the Redo
-- count, the top undo step, the turn that forgets what was undone and a branch's copy read these.
CREATE INDEX "chat_messages_undone_idx" ON "chat_messages" USING btree ("user_id","story_id","undo_step") WHERE "chat_messages"."undo_step" IS NOT NULL;--> statement-breakpoint
-- A story's pictured messages, newest first: the branch tree's thumbnail reads the newest without walking
-- back through every message that has no picture.
CREATE INDEX "chat_messages_pictured_idx" ON "chat_messages" USING btree ("user_id","story_id","created_at","id") WHERE "chat_messages"."image_key" IS NOT NULL;
