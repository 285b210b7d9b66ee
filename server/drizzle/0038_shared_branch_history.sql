-- Branches share their history (decision 0137): a branch reads its own rows plus each ancestor's rows written
-- up to its fork. `seq` is the order rows were written (a fork's cut is "rows of that branch up to seq N",
-- which created_at cannot say: a later retry version carries its exchange's time).
CREATE SEQUENCE IF NOT EXISTS "chat_messages_seq";--> statement-breakpoint
ALTER TABLE "chat_messages" ADD COLUMN "seq" bigint DEFAULT nextval('chat_messages_seq') NOT NULL;--> statement-breakpoint
ALTER SEQUENCE "chat_messages_seq" OWNED BY "chat_messages"."seq";--> statement-breakpoint
CREATE INDEX "chat_messages_seq_idx" ON "chat_messages" USING btree ("user_id","story_id","seq");--> statement-breakpoint
-- A branch's lineage: the branches whose rows it shares (nearest first) and, for each, the last seq it shares.
ALTER TABLE "stories" ADD COLUMN "history_from" uuid[] DEFAULT '{}'::uuid[] NOT NULL;--> statement-breakpoint
ALTER TABLE "stories" ADD COLUMN "history_through" bigint[] DEFAULT '{}'::bigint[] NOT NULL;
