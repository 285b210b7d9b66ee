-- What shaped a narrator message (issue #26, docs/decisions/0105): the Story Cards, Memory, rolling summary and
-- reference images its turn sent. Null for the player's messages, the main chat's and every message written before.
ALTER TABLE "chat_messages" ADD COLUMN "shaped_by" jsonb;
