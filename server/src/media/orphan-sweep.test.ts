// The orphaned media sweep only removes keys of a kind it knows (decision 0123). These tests read the server's
// code: every template that builds an account's key ("u/${user}...") and every file that puts into the media
// store is listed here with the kind of key it writes, so a new put site or a new key shape fails this test
// until someone decides whether the sweep may remove it (and which column names it).
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { isSweepableKey, KEY_KINDS, kindOfKey } from "./orphan-sweep";

const SRC = path.resolve(__dirname, "..");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith(".ts") && !/\.test\.ts$/.test(entry.name) ? [full] : [];
  });
}
const files = sourceFiles(SRC).map((file) => ({
  file: path.relative(SRC, file).split(path.sep).join("/"),
  text: readFileSync(file, "utf8"),
}));

const USER = "0b6f8c1e-3c0e-4f6a-9a55-2a3f4f6b7c8d";
const ID = "6f1c2d3e-4b5a-4c6d-8e7f-901a2b3c4d5e";

/** Each key template in the code, with a key it makes and the kind the sweep gives it. */
const TEMPLATES: Record<string, { example: string; kind: string }> = {
  "story-cards/cards.ts: `u/${userId}/portraits/${randomUUID()}.webp`": {
    example: `u/${USER}/portraits/${ID}.webp`,
    kind: "portraits",
  },
  "voice/narration-job.ts: `u/${row.userId}/speech/${row.id}.wav`": {
    example: `u/${USER}/speech/${ID}.wav`,
    kind: "speech",
  },
  'exports/export-job.ts: `u/${userId}/exports/${exportId}.${format === "md" ? "zip" : format}`': {
    example: `u/${USER}/exports/${ID}.epub`,
    kind: "exports",
  },
  'media/service.ts: `u/${origin.userId}/${id}.${extensionFor[info.mimeType] ?? "bin"}`': {
    example: `u/${USER}/${ID}.png`,
    kind: "gallery",
  },
  "media/service.ts: `u/${origin.userId}/${id}.thumb.webp`": {
    example: `u/${USER}/${ID}.thumb.webp`,
    kind: "gallery",
  },
  "media/service.ts: `u/${origin.userId}/${id}.mp4`": { example: `u/${USER}/${ID}.mp4`, kind: "gallery" },
  'media/inputs.ts: `u/${userId}${UPLOAD_PREFIX}${randomUUID()}.${extension[input.mimeType] ?? "img"}`': {
    example: `u/${USER}/inputs/${ID}.png`,
    kind: "inputs",
  },
  'media/backup-items.ts: `u/${userId}/${place.item}${place.thumbnail ? ".thumb" : ""}.${extension}`': {
    example: `u/${USER}/${ID}.thumb.webp`,
    kind: "gallery",
  },
  "media/backup-items.ts: `u/${userId}/${place.folder}/${randomUUID()}.${extension}`": {
    example: `u/${USER}/references/${ID}.jpg`,
    kind: "references",
  },
};

/**
 * The files that put into the media store, and where their keys come from (a template above, or another's).
 * Voice samples (voices/catalog.ts) are under no account's "u/" and never in media_objects, so never swept.
 */
const PUT_SITES: Record<string, string> = {
  "story-cards/cards.ts": "its portraits template",
  "voice/narration-job.ts": "its speech template",
  "voices/catalog.ts": "voice samples, outside u/<userId>/: no account's, never swept",
  "leave/export.ts": "account archives (account-exports/<id>.zip), outside u/<userId>/: never swept",
  "exports/export-job.ts": "its exports template",
  "exports/film-job.ts": "captions: the film's gallery key with .vtt (gallery kind)",
  "media/service.ts": "its gallery templates",
  "media/inputs.ts": "its inputs template",
  "interop/restore.ts": "media/backup-items.ts's restoredMediaKey (gallery, portraits, references)",
};

describe("the orphaned media sweep's key kinds", () => {
  it("lists every template that builds an account's media key, with the kind it makes", () => {
    const found = files.flatMap(({ file, text }) =>
      [...text.matchAll(/`u\/\$\{[^`]*`/g)].map((match) => `${file}: ${match[0]}`),
    );
    expect(found.sort()).toEqual(Object.keys(TEMPLATES).sort());
    for (const [site, { example, kind }] of Object.entries(TEMPLATES)) {
      expect(kindOfKey(example)?.kind, site).toBe(kind);
    }
  });

  it("lists every file that puts into the media store", () => {
    const putting = files
      .filter(({ file }) => !file.startsWith("media/storage/"))
      // Any `x.put(` or `x.putStream(` but a Fastify route's `app.put(`.
      .filter(({ text }) =>
        [...text.matchAll(/(\w+\)?)\.put(Stream)?\(/g)].some((match) => match[1] !== "app"),
      )
      .map(({ file }) => file);
    expect(putting.sort()).toEqual(Object.keys(PUT_SITES).sort());
  });

  it("sweeps only keys of a listed kind under an account, and film captions beside their video", () => {
    expect(isSweepableKey(`u/${USER}/${ID}.vtt`)).toBe(true);
    expect(isSweepableKey(`u/${USER}/filler.bin`)).toBe(false);
    expect(isSweepableKey(`u/${USER}/somewhere/${ID}.png`)).toBe(false);
    expect(isSweepableKey(`u/${USER}/portraits/${ID}/x.webp`)).toBe(false);
    expect(isSweepableKey(`voices/espeak/en.wav`)).toBe(false);
    expect(isSweepableKey(`u/not-a-user/${ID}.png`)).toBe(false);
    expect(KEY_KINDS.map((kind) => kind.kind).sort()).toEqual(
      ["exports", "gallery", "inputs", "portraits", "references", "speech"].sort(),
    );
  });
});

describe("the modules the sweep asks", () => {
  // Columns named "*_key(s)" that hold no storage key: a lore suggestion's normalised name, a narration's hash.
  const NOT_STORAGE_KEYS = new Set(["name_key", "content_key"]);

  it("asks about every column of the schema that can hold a stored key", () => {
    const schema = files.find((f) => f.file === "db/schema.ts")!.text;
    const keyColumns = [...schema.matchAll(/(\w+): text\("(\w+_keys?)"\)/g)]
      .filter(([, , sqlName]) => !NOT_STORAGE_KEYS.has(sqlName!))
      .map(([, property]) => property!);
    expect(keyColumns.length).toBeGreaterThanOrEqual(12);
    // A module answers with keysNamedIn over its columns ("column: table.<property>").
    const asked = new Set(
      files
        .filter((f) => f.text.includes("keysNamedIn("))
        .flatMap((f) => [...f.text.matchAll(/column: \w+\.(\w+)/g)].map(([, property]) => property!)),
    );
    expect(keyColumns.filter((property) => !asked.has(property))).toEqual([]);
  });

  it("lists every module's answer for the sweep", () => {
    const source = files.find((f) => f.file === "jobs/stored-key-referrers.ts")!.text;
    // The list itself, not its imports.
    const list = source.slice(source.indexOf("export const storedKeyReferrers"));
    const referrers = files.flatMap((f) =>
      [...f.text.matchAll(/export const (\w+): StoredKeyReferrer/g)].map(([, name]) => name!),
    );
    expect(referrers.length).toBeGreaterThanOrEqual(9);
    expect(referrers.filter((name) => !new RegExp(`\\b${name}\\b`).test(list))).toEqual([]);
  });
});
