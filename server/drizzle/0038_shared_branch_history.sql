-- Branches share their history (decision 0137): a branch reads its own rows plus each ancestor's rows written
-- up to its fork. `seq` is the order rows were written (a fork's cut is "rows of that branch up to seq N",
-- which created_at cannot say: a later retry version carries its exchange's time).
CREATE SEQUENCE IF NOT EXISTS "chat_messages_seq";--> statement-breakpoint
ALTER TABLE "chat_messages" ADD COLUMN "seq" bigint;--> statement-breakpoint
-- The rows already written are numbered in the order their stories tell them (an answer's versions after it),
-- not in the table's physical order, so a cut of an existing story is the story up to a message.
UPDATE "chat_messages" SET "seq" = "numbered"."n"
FROM (SELECT "id", row_number() OVER (ORDER BY "created_at", "version_number", "id") AS "n" FROM "chat_messages") AS "numbered"
WHERE "chat_messages"."id" = "numbered"."id";--> statement-breakpoint
SELECT setval('chat_messages_seq', coalesce((SELECT max("seq") FROM "chat_messages"), 0) + 1, false);--> statement-breakpoint
ALTER TABLE "chat_messages" ALTER COLUMN "seq" SET DEFAULT nextval('chat_messages_seq');--> statement-breakpoint
ALTER TABLE "chat_messages" ALTER COLUMN "seq" SET NOT NULL;--> statement-breakpoint
ALTER SEQUENCE "chat_messages_seq" OWNED BY "chat_messages"."seq";--> statement-breakpoint
CREATE INDEX "chat_messages_seq_idx" ON "chat_messages" USING btree ("user_id","story_id","seq");--> statement-breakpoint
-- A branch's lineage: the branches whose rows it shares (nearest first) and, for each, the last seq it shares.
ALTER TABLE "stories" ADD COLUMN "history_from" uuid[] DEFAULT '{}'::uuid[] NOT NULL;--> statement-breakpoint
ALTER TABLE "stories" ADD COLUMN "history_through" bigint[] DEFAULT '{}'::bigint[] NOT NULL;
