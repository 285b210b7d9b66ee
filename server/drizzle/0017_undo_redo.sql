-- Undo and Redo (issue #26): an undone exchange stays, hidden, with its place on the story's Redo stack (undo_step) until
-- the next turn; a retry that paints a new scene for the same words marks its version scene_only (its whole charge paid
-- for the media, so a failed scene refunds all of it).
ALTER TABLE "chat_messages" ADD COLUMN "undo_step" integer;--> statement-breakpoint
ALTER TABLE "chat_messages" ADD COLUMN "scene_only" boolean DEFAULT false NOT NULL;