-- The interface language a player chose (issue #46 item 3, decision 0155): the web app follows it on every
-- device they sign in on, and the mails the server sends them are written in it. null: not chosen yet (the web
-- app takes the browser's language; mails go out in English).
ALTER TABLE "users" ADD COLUMN "locale" text;
