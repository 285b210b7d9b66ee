ALTER TABLE "stories" ADD COLUMN "root_id" uuid;--> statement-breakpoint
ALTER TABLE "stories" ADD COLUMN "branch_name" text DEFAULT 'Main' NOT NULL;--> statement-breakpoint
ALTER TABLE "stories" ADD COLUMN "branch_removed" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "stories" ADD COLUMN "viewing_branch_id" uuid;--> statement-breakpoint
ALTER TABLE "stories" ADD COLUMN "forked_from_branch_id" uuid;--> statement-breakpoint
ALTER TABLE "stories" ADD COLUMN "forked_from_message_id" uuid;--> statement-breakpoint
ALTER TABLE "stories" ADD COLUMN "fork_turn" integer;--> statement-breakpoint
ALTER TABLE "stories" ADD COLUMN "fork_words" text;--> statement-breakpoint
ALTER TABLE "stories" ADD CONSTRAINT "stories_root_id_stories_id_fk" FOREIGN KEY ("root_id") REFERENCES "public"."stories"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "stories_root_idx" ON "stories" USING btree ("root_id");--> statement-breakpoint
ALTER TABLE "chat_messages" ADD COLUMN "checkpoint" text;--> statement-breakpoint
ALTER TABLE "chat_messages" ADD COLUMN "copied_from" uuid;--> statement-breakpoint
CREATE INDEX "chat_messages_copied_from_idx" ON "chat_messages" USING btree ("copied_from");
