// Every namespace of the German translation (decision 0155): one JSON file per feature that owns it.

import accounts from "./de/accounts.json";
import admin from "./de/admin.json";
import common from "./de/common.json";
import conversation from "./de/conversation.json";
import credits from "./de/credits.json";
import gallery from "./de/gallery.json";
import landing from "./de/landing.json";
import mediaClip from "./de/media-clip.json";
import messages from "./de/messages.json";
import news from "./de/news.json";
import personas from "./de/personas.json";
import pictureEdit from "./de/picture-edit.json";
import sharing from "./de/sharing.json";
import stories from "./de/stories.json";
import storyTools from "./de/story-tools.json";
import studio from "./de/studio.json";
import voice from "./de/voice.json";

export const de = {
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
