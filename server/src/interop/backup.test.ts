// The backup's plan and JSON, from rows alone: each file goes in once whatever uses it, a file that could not
// be read is never named, ids are the archive's own, and what the writer writes is what the reader accepts.
import { describe, expect, it } from "vitest";
import type { BackupMessage } from "../conversation/backup-rows";
import type { BackupMediaItem } from "../media/backup-items";
import { sniffVideo } from "../media/backup-items";
import type { BackupStory } from "../stories/backup-rows";
import type { BackupCard } from "../story-cards/backup-rows";
import { archiveJson, planBackup } from "./backup";
import { storyArchiveSchema } from "./backup-format";

const at = new Date("2026-03-01T10:00:00.000Z");
const user = "11111111-1111-4111-8111-111111111111";
const story: BackupStory = {
  id: "22222222-2222-4222-8222-222222222222",
  userId: user,
  title: "Harbour",
  context: "",
  pinnedThumbnailKey: `u/${user}/a.thumb.webp`,
  pinnedAt: at,
  memory: "m",
  authorsNote: "n",
  summary: "s",
  summaryThrough: at,
  summaryCovers: 4,
  summaryUpdatedAt: at,
  narratorInstructions: "",
  postHistoryInstructions: "",
  creatorNotes: "",
  characterName: "",
  loreBudgetPercent: 50,
  loreScanDepth: 4,
  outputLength: "long",
  temperature: 0.5,
  textModel: null,
  authorsNoteDepth: 3,
  artStyle: "ink",
  aspectRatio: "16:9",
  inputMode: "do",
  narratorVoice: null,
  readAloud: false,
  scenePlace: "",
  sceneTimeOfDay: "",
  sceneWeather: "",
  personaId: null,
  teller: "narrator",
  tellerCardId: null,
  groupCardIds: [],
  speakerOrder: "natural",
  mutedCardIds: [],
  knowsWhatTheySaw: false,
  summaryWitnesses: null,
  rootId: null,
  branchName: "Main",
  branchRemoved: false,
  viewingBranchId: null,
  forkedFromBranchId: null,
  forkedFromMessageId: null,
  forkTurn: null,
  forkWords: null,
  restoring: false,
  createdAt: at,
  updatedAt: at,
};

function message(id: string, overrides: Partial<BackupMessage> = {}): BackupMessage {
  return {
    id,
    userId: user,
    storyId: story.id,
    role: "assistant",
    content: "text",
    mode: "image",
    sceneDescription: null,
    mediaStatus: "completed",
    mediaError: null,
    imageKey: null,
    videoKey: null,
    chargedTenths: 5,
    referenceKeys: [],
    undoStep: null,
    sceneOnly: false,
    versionGroup: null,
    versionNumber: 1,
    hidden: false,
    stopped: false,
    checkpoint: null,
    copiedFrom: null,
    speaker: null,
    present: null,
    createdAt: at,
    updatedAt: at,
    ...overrides,
  };
}

const item = (id: string, key: string, overrides: Partial<BackupMediaItem> = {}): BackupMediaItem => ({
  id,
  userId: user,
  kind: "image",
  storageKey: key,
  thumbnailKey: key.replace(".png", ".thumb.webp"),
  mimeType: "image/png",
  bytes: 10,
  width: 4,
  height: 4,
  source: "story",
  storyId: story.id,
  storyTitle: "Harbour",
  messageId: null,
  description: "",
  createdAt: at,
  favourite: false,
  seed: null,
  parentId: null,
  durationSeconds: null,
  ...overrides,
});

const card = (overrides: Partial<BackupCard>): BackupCard => ({
  id: "c",
  userId: user,
  storyId: story.id,
  name: "Mara",
  kind: "character",
  triggers: ["Mara"],
  description: "",
  portraitItemId: null,
  portraitKey: null,
  referenceExtras: [],
  enabled: true,
  secondaryTriggers: [],
  selectiveLogic: "and_any",
  constant: false,
  insertionOrder: 100,
  priority: 10,
  caseSensitive: false,
  extensions: {},
  characterCard: null,
  voice: null,
  talkativeness: 0.5,
  appearance: "",
  appearanceUpdatedAt: null,
  createdAt: at,
  updatedAt: at,
  ...overrides,
});

const a = `u/${user}/a.png`;
const b = `u/${user}/b.png`;
const portrait = `u/${user}/portraits/p.webp`;
const first = "aaaaaaaa-0000-4000-8000-000000000001";
const retry = "aaaaaaaa-0000-4000-8000-000000000002";

function samplePlan() {
  return planBackup({
    branches: [
      {
        story,
        messages: [
          message(first, { imageKey: a, versionGroup: first, hidden: true, referenceKeys: [portrait, a] }),
          message(retry, { imageKey: b, versionGroup: first, versionNumber: 2 }),
        ],
        cards: [
          card({ id: "c1", name: "Mara", portraitKey: portrait }),
          card({ id: "c2", name: "Bell", portraitItemId: "item-a" }),
        ],
        items: [item("item-a", a, { messageId: first }), item("item-b", b, { messageId: retry })],
      },
    ],
    portraitItems: [{ id: "item-a", kind: "image", storageKey: a }],
  });
}

describe("story backup plan", () => {
  it("puts each file in once, however many things use it", () => {
    const plan = samplePlan();
    expect([...plan.paths.values()]).toEqual([
      "media/images/0001.png",
      "media/thumbnails/0001.webp",
      "media/images/0002.png",
      "media/thumbnails/0002.webp",
      "media/portraits/0001.webp",
    ]);
  });

  it("writes JSON the reader accepts, with the archive's own ids and no storage key or database id", () => {
    const plan = samplePlan();
    const json = archiveJson(plan, new Set(plan.paths.keys()), at);
    expect(storyArchiveSchema.safeParse(json).success).toBe(true);
    expect(json.messages.map((m) => [m.id, m.version_group, m.image, m.references])).toEqual([
      ["m1", "m1", "media/images/0001.png", ["media/portraits/0001.webp", "media/images/0001.png"]],
      ["m2", "m1", "media/images/0002.png", []],
    ]);
    expect(json.cards.map((c) => c.portrait)).toEqual(["media/portraits/0001.webp", "media/images/0001.png"]);
    expect(json.story.pinned_thumbnail).toBe("media/thumbnails/0001.webp");
    const text = JSON.stringify(json);
    for (const secret of [user, first, retry, story.id, "item-a"]) expect(text).not.toContain(secret);
  });

  it("names a group scene's characters, who was present and the summary's witnesses, never by id", () => {
    const [mara, bell] = [
      { card_id: "c1", name: "Mara" },
      { card_id: "c2", name: "Bell" },
    ];
    const plan = planBackup({
      branches: [
        {
          story: {
            ...story,
            teller: "group",
            groupCardIds: ["c2", "c1", "gone"],
            mutedCardIds: ["c2"],
            speakerOrder: "manual",
            knowsWhatTheySaw: true,
            summaryWitnesses: [mara],
          },
          messages: [
            message(first, { speaker: mara, present: [mara, bell] }),
            message(retry, { role: "user", present: null }),
          ],
          cards: [card({ id: "c1", name: "Mara", talkativeness: 0.8 }), card({ id: "c2", name: "Bell" })],
          items: [],
        },
      ],
      portraitItems: [],
    });
    const json = archiveJson(plan, new Set(), at);
    expect(storyArchiveSchema.safeParse(json).success).toBe(true);
    expect(json.story).toMatchObject({
      teller: "group",
      group_cards: ["Bell", "Mara"],
      muted_cards: ["Bell"],
      speaker_order: "manual",
      knows_what_they_saw: true,
      summary_witnesses: ["Mara"],
    });
    expect(json.messages.map((m) => [m.speaker, m.present])).toEqual([
      ["Mara", ["Mara", "Bell"]],
      [null, null],
    ]);
    expect(json.cards.map((c) => c.talkativeness)).toEqual([0.8, 0.5]);
    expect(JSON.stringify(json)).not.toMatch(/"c1"|"c2"/);
  });

  it("never names a file that could not be read", () => {
    const plan = samplePlan();
    const stored = new Set([...plan.paths.keys()].filter((key) => key !== a && key !== portrait));
    const json = archiveJson(plan, stored, at);
    expect(json.media.map((m) => m.path)).toEqual(["media/images/0002.png"]);
    expect(json.messages[0]).toMatchObject({ image: null, references: [] });
    expect(json.cards.map((c) => c.portrait)).toEqual([null, null]);
    expect(storyArchiveSchema.safeParse(json).success).toBe(true);
  });

  it("carries a message's file that has no gallery item as an item of its own", () => {
    const orphan = `u/${user}/orphan.mp4`;
    const plan = planBackup({
      branches: [
        { story, messages: [message(first, { mode: "video", videoKey: orphan })], cards: [], items: [] },
      ],
      portraitItems: [],
    });
    const json = archiveJson(plan, new Set([orphan]), at);
    expect(json.media).toEqual([
      expect.objectContaining({ path: "media/videos/0001.mp4", kind: "video", message: "m1" }),
    ]);
  });
});

describe("whole-tree backup (format 2)", () => {
  it("holds every branch with its own messages, cards and checkpoints, each file once, forks by archive id", () => {
    const branchId = "33333333-3333-4333-8333-333333333333";
    const copy = "aaaaaaaa-0000-4000-8000-000000000003";
    const plan = planBackup({
      branches: [
        {
          story,
          messages: [message(first, { imageKey: a, checkpoint: "Before the duel" })],
          cards: [card({ id: "c1", name: "Mara" })],
          items: [item("item-a", a, { messageId: first })],
        },
        {
          story: {
            ...story,
            id: branchId,
            rootId: story.id,
            branchName: "Flight",
            memory: "branch memory",
            forkedFromBranchId: story.id,
            forkedFromMessageId: first,
            forkTurn: 1,
          },
          // The branch's copy of the first message shares its picture: one file in the archive.
          messages: [message(copy, { storyId: branchId, imageKey: a, copiedFrom: first })],
          cards: [card({ id: "c2", storyId: branchId, name: "Mara" })],
          items: [],
        },
      ],
      viewingBranchId: branchId,
      portraitItems: [],
    });
    const json = archiveJson(plan, new Set(plan.paths.keys()), at);
    expect(storyArchiveSchema.safeParse(json).success).toBe(true);
    expect(json.version).toBe(2);
    expect([...plan.paths.values()].filter((p) => p.startsWith("media/images/"))).toEqual([
      "media/images/0001.png",
    ]);
    expect(json.branches).toEqual([
      expect.objectContaining({ id: "b1", name: "Main", story: null, forked_from_branch: null }),
      expect.objectContaining({
        id: "b2",
        name: "Flight",
        forked_from_branch: "b1",
        forked_from_message: "m1",
        fork_turn: 1,
        story: expect.objectContaining({ memory: "branch memory" }),
      }),
    ]);
    expect(json.viewing_branch).toBe("b2");
    expect(json.messages.map((m) => [m.id, m.branch, m.checkpoint, m.copied_from, m.image])).toEqual([
      ["m1", null, "Before the duel", null, "media/images/0001.png"],
      ["m2", "b2", null, "m1", "media/images/0001.png"],
    ]);
    expect(json.cards.map((c) => c.branch)).toEqual([null, "b2"]);
    // The picture both branches show is one gallery item.
    expect(json.media.map((m) => [m.branch, m.path, m.message])).toEqual([
      [null, "media/images/0001.png", "m1"],
    ]);
    expect(JSON.stringify(json)).not.toContain(branchId);
  });
});

describe("clip sniffing", () => {
  it("tells MP4 and WebM by their first bytes, and nothing else", () => {
    const mp4 = Buffer.concat([Buffer.from([0, 0, 0, 24]), Buffer.from("ftypisom"), Buffer.alloc(8)]);
    expect(sniffVideo(mp4)).toBe("video/mp4");
    expect(sniffVideo(Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 0, 0, 0, 0]))).toBe("video/webm");
    expect(sniffVideo(Buffer.from("<svg></svg> not a clip"))).toBeNull();
  });
});
