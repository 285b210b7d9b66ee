ALTER TABLE "chat_messages" ADD COLUMN "version_group" uuid;--> statement-breakpoint
ALTER TABLE "chat_messages" ADD COLUMN "version_number" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "chat_messages" ADD COLUMN "hidden" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "chat_messages_version_group_idx" ON "chat_messages" USING btree ("version_group");