CREATE TABLE "story_cards" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"story_id" uuid NOT NULL,
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"triggers" text[] NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"portrait_item_id" uuid,
	"portrait_key" text,
	"enabled" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "story_cards" ADD CONSTRAINT "story_cards_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "story_cards" ADD CONSTRAINT "story_cards_story_id_stories_id_fk" FOREIGN KEY ("story_id") REFERENCES "public"."stories"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "story_cards_story_idx" ON "story_cards" USING btree ("story_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "story_cards_story_name_unique" ON "story_cards" USING btree ("story_id",lower("name"));