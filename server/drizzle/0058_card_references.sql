-- References by role (issue 45 item 3, decision 0161): a Story Card holds up to four reference pictures, its
-- portrait first; the other three are kept in order, each the storage key of an upload the card owns or
-- `gallery:<id>` for a gallery image of the player's.
ALTER TABLE "story_cards" ADD COLUMN "reference_extras" text[] DEFAULT '{}'::text[] NOT NULL;
