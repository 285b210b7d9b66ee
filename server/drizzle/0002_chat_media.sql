CREATE TABLE "chat_messages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"story_id" uuid,
	"role" text NOT NULL,
	"content" text NOT NULL,
	"mode" text,
	"scene_description" text,
	"media_status" text DEFAULT 'none' NOT NULL,
	"media_error" text,
	"image_key" text,
	"video_key" text,
	"charged_tenths" integer DEFAULT 0 NOT NULL,
	"reference_keys" text[] DEFAULT '{}'::text[] NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "media_items" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"storage_key" text NOT NULL,
	"thumbnail_key" text,
	"mime_type" text NOT NULL,
	"bytes" integer NOT NULL,
	"width" integer,
	"height" integer,
	"source" text NOT NULL,
	"story_id" uuid,
	"story_title" text,
	"message_id" uuid,
	"description" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "media_items_storage_key_unique" UNIQUE("storage_key")
);
--> statement-breakpoint
ALTER TABLE "chat_messages" ADD CONSTRAINT "chat_messages_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "media_items" ADD CONSTRAINT "media_items_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "chat_messages_user_story_idx" ON "chat_messages" USING btree ("user_id","story_id","created_at");--> statement-breakpoint
CREATE INDEX "media_items_user_created_idx" ON "media_items" USING btree ("user_id","created_at");