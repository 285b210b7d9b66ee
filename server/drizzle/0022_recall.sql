CREATE TABLE "recall_marks" (
	"message_id" uuid PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"story_id" uuid NOT NULL,
	"pinned" boolean DEFAULT false NOT NULL,
	"forgotten" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "recall_marks" ADD CONSTRAINT "recall_marks_message_id_chat_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."chat_messages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recall_marks" ADD CONSTRAINT "recall_marks_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recall_marks" ADD CONSTRAINT "recall_marks_story_id_stories_id_fk" FOREIGN KEY ("story_id") REFERENCES "public"."stories"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "recall_marks_story_idx" ON "recall_marks" USING btree ("story_id");--> statement-breakpoint
-- Written by hand (not in schema.ts, so reading messages never carries it): every message's words as a text
-- search vector, kept by the database itself, and its index; recall ranks a story's older exchanges with it.
ALTER TABLE "chat_messages" ADD COLUMN "search" tsvector GENERATED ALWAYS AS (to_tsvector('english'::regconfig, "content")) STORED;--> statement-breakpoint
CREATE INDEX "chat_messages_search_idx" ON "chat_messages" USING gin ("search");
