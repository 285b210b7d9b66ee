-- Personas (issue #43 item 4, decision 0152): who the player plays. An account keeps up to 50, each a name,
-- a description, an optional portrait (one of its gallery images; a deleted image leaves no portrait) and an
-- optional default voice; at most one is the default. A story may name the persona it is played as (null: the
-- account's default persona, if any); deleting the persona leaves the story on the default.
CREATE TABLE "personas" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"portrait_item_id" uuid,
	"voice" text,
	"is_default" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "personas" ADD CONSTRAINT "personas_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "personas_user_idx" ON "personas" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "personas_one_default" ON "personas" USING btree ("user_id") WHERE "personas"."is_default" = true;--> statement-breakpoint
ALTER TABLE "stories" ADD COLUMN "persona_id" uuid;--> statement-breakpoint
ALTER TABLE "stories" ADD CONSTRAINT "stories_persona_id_personas_id_fk" FOREIGN KEY ("persona_id") REFERENCES "public"."personas"("id") ON DELETE set null ON UPDATE no action;
