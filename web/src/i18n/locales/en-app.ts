// The English of the signed-in app's screens (decision 0155), a chunk of its own: the landing page does not wait
// for it, a signed-in view does (i18n.ts).
import admin from "./en/admin.json";
import conversation from "./en/conversation.json";
import credits from "./en/credits.json";
import gallery from "./en/gallery.json";
import mediaClip from "./en/media-clip.json";
import news from "./en/news.json";
import personas from "./en/personas.json";
import pictureEdit from "./en/picture-edit.json";
import sharing from "./en/sharing.json";
import stories from "./en/stories.json";
import storyTools from "./en/story-tools.json";
import studio from "./en/studio.json";
import voice from "./en/voice.json";

export const enApp = {
  stories,
  "story-tools": storyTools,
  conversation,
  voice,
  credits,
  personas,
  studio,
  gallery,
  "picture-edit": pictureEdit,
  "media-clip": mediaClip,
  admin,
  sharing,
  news,
};
