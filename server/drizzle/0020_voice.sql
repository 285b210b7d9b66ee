-- The story speaks (issue #31): a narrator voice and the "read new turns aloud" switch per story, a voice per Story
-- Card, and the narration of narrator messages (one row per message version, wording and cast of voices).
CREATE TABLE "message_speech" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"story_id" uuid NOT NULL,
	"message_id" uuid NOT NULL,
	"content_key" text NOT NULL,
	"status" text NOT NULL,
	"parts" jsonb NOT NULL,
	"audio_key" text,
	"duration_ms" integer,
	"segments" jsonb,
	"error" text,
	"charged_tenths" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "stories" ADD COLUMN "narrator_voice" text;--> statement-breakpoint
ALTER TABLE "stories" ADD COLUMN "read_aloud" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "story_cards" ADD COLUMN "voice" text;--> statement-breakpoint
ALTER TABLE "message_speech" ADD CONSTRAINT "message_speech_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_speech" ADD CONSTRAINT "message_speech_story_id_stories_id_fk" FOREIGN KEY ("story_id") REFERENCES "public"."stories"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_speech" ADD CONSTRAINT "message_speech_message_id_chat_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."chat_messages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "message_speech_message_key" ON "message_speech" USING btree ("message_id","content_key");--> statement-breakpoint
CREATE INDEX "message_speech_user_pending" ON "message_speech" USING btree ("user_id") WHERE "message_speech"."status" = 'pending';