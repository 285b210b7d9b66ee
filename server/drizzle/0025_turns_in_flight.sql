CREATE TABLE "turns_in_flight" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"story_id" uuid,
	"started_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "turns_in_flight" ADD CONSTRAINT "turns_in_flight_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "turns_in_flight_user_idx" ON "turns_in_flight" USING btree ("user_id","story_id");
