// The container check's player (scripts/ci-container.sh): against a running container, a player signs up
// (the verification link read from the container's log, where the server prints mail without SMTP_URL),
// makes a story and plays a turn whose picture the container's worker makes; then a streamed turn, during
// which the container is stopped (`--stop-command`, e.g. `podman stop -t 30 NAME`): the turn must still
// arrive whole, since SIGTERM drains in-flight requests before the process exits.
//
// With --player FILE it writes the player's sign-in, story and the narrator's words there; with --restored FILE
// it instead signs that player in on a container started from a restored backup and finds the story and both
// turns (the backup drill).
//
// Usage: node scripts/container-smoke.mjs --base http://127.0.0.1:PORT --logs "podman logs NAME" \
//          --stop "podman stop -t 30 NAME" --player FILE
//        node scripts/container-smoke.mjs --base http://127.0.0.1:PORT --restored FILE
import { exec, execSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import {
  check,
  createStory,
  playStreamedTurn,
  playTurn,
  signIn,
  signUp,
  storyMessagesText,
  waitForMedia,
  waitUntilReady,
} from "./smoke-player.mjs";

const { values } = parseArgs({
  options: {
    base: { type: "string" },
    logs: { type: "string" },
    stop: { type: "string" },
    player: { type: "string" },
    restored: { type: "string" },
  },
});
const { base, logs, stop, player, restored } = values;

if (base && restored) {
  const saved = JSON.parse(readFileSync(restored, "utf8"));
  await waitUntilReady(base, 120_000);
  const token = await signIn(base, saved.email, saved.password);
  const messages = await storyMessagesText(base, token, saved.storyId);
  for (const said of saved.narrator) {
    check(
      messages.includes(JSON.stringify(said).slice(1, -1)),
      `the restored story lacks the turn "${said.slice(0, 60)}..."`,
    );
  }
  console.log(`restored: ${saved.email} signed in and found the story with both turns`);
  process.exit(0);
}
if (!base || !logs || !stop || !player) {
  console.error(
    "usage: container-smoke.mjs --base URL --logs CMD --stop CMD --player FILE, or --base URL --restored FILE",
  );
  process.exit(2);
}
const readLog = () => execSync(`${logs} 2>&1`, { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });

const readyStarted = performance.now();
await waitUntilReady(base, 120_000);
console.log(`ready ${Math.round(performance.now() - readyStarted)} ms after the check began`);

const { token, email, password } = await signUp(base, readLog);
const storyId = await createStory(base, token, "The Lighthouse");

const first = await playTurn(base, token, storyId, {
  prompt: "I unroll the map by the lamp.",
  chat_mode: "image",
});
console.log(`turn 1 (JSON): the narrator said "${first.story_text.slice(0, 80)}..."`);
const media = await waitForMedia(base, token, storyId, first.message_id, 90_000);
console.log(`turn 1's picture made by the container's worker: ${media.status}`);

// The stop goes out when the first words arrive; the turn must finish whole regardless.
let stopping;
const streamed = await playStreamedTurn(
  base,
  token,
  storyId,
  { prompt: "I follow the map down to the shore.", chat_mode: "chat" },
  () => {
    console.log(`first words arrived: running "${stop}" mid-turn`);
    stopping = new Promise((resolve, reject) =>
      exec(stop, (error, _stdout, stderr) => (error ? reject(new Error(`${stop}: ${stderr}`)) : resolve())),
    );
  },
);
console.log(
  `turn 2 (streamed): first words at ${Math.round(streamed.firstWordsAtMs)} ms, whole turn at ${Math.round(streamed.doneAtMs)} ms, ${streamed.text.split(/\s+/).length} words, though the container was told to stop at its first words`,
);
check(stopping, "the stop command never ran");
await stopping;

writeFileSync(
  player,
  JSON.stringify({ email, password, storyId, narrator: [first.story_text, streamed.answer.story_text] }),
);
const log = readLog();
check(
  /SIGTERM received: finishing in-flight work, then stopping/.test(log),
  "no drain line in the container's log",
);
console.log("the container's log shows the drain: SIGTERM received: finishing in-flight work, then stopping");
