CREATE TABLE "lore_suggestions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"story_id" uuid NOT NULL,
	"name" text NOT NULL,
	"name_key" text NOT NULL,
	"kind" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"status" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "stories" ADD COLUMN "scene_place" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "stories" ADD COLUMN "scene_time_of_day" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "stories" ADD COLUMN "scene_weather" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "story_cards" ADD COLUMN "appearance" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "story_cards" ADD COLUMN "appearance_updated_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "lore_suggestions" ADD CONSTRAINT "lore_suggestions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lore_suggestions" ADD CONSTRAINT "lore_suggestions_story_id_stories_id_fk" FOREIGN KEY ("story_id") REFERENCES "public"."stories"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "lore_suggestions_story_name_unique" ON "lore_suggestions" USING btree ("story_id","name_key");