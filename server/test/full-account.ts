// An account with something of everything a player owns (decision 0143's tests): two stories (one with a
// picture turn), a Studio picture, a share link, a persona one story is played as (decision 0152), and the
// ledger rows all of that wrote.
import { expect } from "vitest";
import type { TestApp } from "./app";
import { bearer, type TestUser } from "./factories";
import { waitForMedia } from "./media";

export type FilledAccount = {
  storyIds: string[];
  titles: string[];
  studioPrompt: string;
  shareToken: string;
  personaName: string;
};

async function call(
  t: TestApp,
  user: TestUser,
  method: "GET" | "POST" | "PUT",
  url: string,
  payload?: object,
) {
  const res = await t.app.inject({
    method,
    url,
    headers: bearer(user.token),
    ...(payload ? { payload } : {}),
  });
  expect(res.statusCode, `${method} ${url}: ${res.body.slice(0, 300)}`).toBeLessThan(300);
  return res.json();
}

export async function fillAccount(t: TestApp, user: TestUser): Promise<FilledAccount> {
  const titles = ["The Salt Road", "Winter Keep"];
  const storyIds: string[] = [];
  for (const title of titles) {
    const created = await call(t, user, "POST", "/api/stories", { title, context: `${title}: a tale.` });
    storyIds.push(created.story.id);
  }
  const [salt, winter] = storyIds as [string, string];
  const personaName = "Nomad";
  const persona = await call(t, user, "POST", "/api/personas", {
    name: personaName,
    description: "A caravan guide who reads the stars.",
    is_default: true,
  });
  await call(t, user, "PUT", `/api/stories/${salt}/settings`, { persona_id: persona.persona.id });
  await call(t, user, "POST", `/api/stories/${salt}/chat`, {
    prompt: "I greet the caravan master",
    chat_mode: "chat",
  });
  const pictured = await call(t, user, "POST", `/api/stories/${salt}/chat`, {
    prompt: "I look at the dunes at dusk",
    chat_mode: "image",
  });
  const status = await waitForMedia(
    t,
    user.token,
    `/api/stories/${salt}/media-status/${pictured.message_id}`,
  );
  expect(status.media_generation_completed).toBe(true);
  await call(t, user, "POST", `/api/stories/${winter}/chat`, {
    prompt: "I light the hearth",
    chat_mode: "chat",
  });
  const studioPrompt = "a lighthouse in the fog";
  await call(t, user, "POST", "/api/studio/generate-image", { prompt: studioPrompt, batch_size: 1 });
  const share = await call(t, user, "POST", `/api/stories/${salt}/share`, {});
  const shareToken = new URL(share.url as string, "http://app.test").pathname.split("/").at(-1)!;
  return { storyIds, titles, studioPrompt, shareToken, personaName };
}
