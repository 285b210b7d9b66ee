// Every namespace of the Spanish translation (decision 0155): one JSON file per feature that owns it.

import accounts from "./es/accounts.json";
import admin from "./es/admin.json";
import common from "./es/common.json";
import conversation from "./es/conversation.json";
import credits from "./es/credits.json";
import gallery from "./es/gallery.json";
import landing from "./es/landing.json";
import mediaClip from "./es/media-clip.json";
import messages from "./es/messages.json";
import news from "./es/news.json";
import personas from "./es/personas.json";
import pictureEdit from "./es/picture-edit.json";
import sharing from "./es/sharing.json";
import stories from "./es/stories.json";
import storyTools from "./es/story-tools.json";
import studio from "./es/studio.json";
import voice from "./es/voice.json";

export const es = {
  common: common,
  stories: stories,
  "story-tools": storyTools,
  conversation: conversation,
  voice: voice,
  accounts: accounts,
  credits: credits,
  personas: personas,
  studio: studio,
  gallery: gallery,
  "picture-edit": pictureEdit,
  "media-clip": mediaClip,
  admin: admin,
  sharing: sharing,
  news: news,
  landing: landing,
  messages,
};
