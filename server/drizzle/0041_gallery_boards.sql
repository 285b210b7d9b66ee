-- The Gallery organised (issue 45 item 5, decision 0141): a favourite flag on each item, the player's boards,
-- and which items each board holds (an item in several boards; deleting the item or the board removes its rows).
ALTER TABLE "media_items" ADD COLUMN "favourite" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- "Favourites" pages newest first without reading the items that are not.
CREATE INDEX "media_items_favourite_idx" ON "media_items" USING btree ("user_id","created_at","id") WHERE "media_items"."favourite";--> statement-breakpoint
-- The story filter pages a story's items newest first.
CREATE INDEX "media_items_user_story_idx" ON "media_items" USING btree ("user_id","story_id","created_at");--> statement-breakpoint
CREATE TABLE "media_boards" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);--> statement-breakpoint
ALTER TABLE "media_boards" ADD CONSTRAINT "media_boards_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "media_boards_user_name_unique" ON "media_boards" USING btree ("user_id",lower("name"));--> statement-breakpoint
CREATE TABLE "media_board_items" (
	"board_id" uuid NOT NULL,
	"media_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"added_at" timestamp with time zone NOT NULL,
	CONSTRAINT "media_board_items_board_id_media_id_pk" PRIMARY KEY("board_id","media_id")
);--> statement-breakpoint
ALTER TABLE "media_board_items" ADD CONSTRAINT "media_board_items_board_id_media_boards_id_fk" FOREIGN KEY ("board_id") REFERENCES "public"."media_boards"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "media_board_items" ADD CONSTRAINT "media_board_items_media_id_media_items_id_fk" FOREIGN KEY ("media_id") REFERENCES "public"."media_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "media_board_items_media_idx" ON "media_board_items" USING btree ("media_id");--> statement-breakpoint
-- Deleting a gallery picture asks first when a story card's portrait is it: those cards found by the picture.
CREATE INDEX "story_cards_portrait_item_idx" ON "story_cards" USING btree ("portrait_item_id") WHERE "story_cards"."portrait_item_id" IS NOT NULL;
