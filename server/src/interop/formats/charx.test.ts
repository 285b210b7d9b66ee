// CHARX zips from strangers: unsafe paths, zip bombs, too many entries and a missing card are refused.
import { crc32 } from "node:zlib";
import { describe, expect, it } from "vitest";
import { ZipFile } from "yazl";
import { readCardFile } from "./character-card";
import { CHARX_MAX_ENTRIES, isSafeZipPath, readCharxFiles } from "./charx";
import { InteropError } from "./errors";

const card = Buffer.from(JSON.stringify({ spec: "chara_card_v3", spec_version: "3.0", data: { name: "Z" } }));

async function zip(files: [string, Buffer][], compress = true): Promise<Buffer> {
  const file = new ZipFile();
  for (const [name, data] of files) file.addBuffer(data, name, { compressionLevel: compress ? 1 : 0 });
  file.end();
  const parts: Buffer[] = [];
  for await (const part of file.outputStream) parts.push(part as Buffer);
  return Buffer.concat(parts);
}

/** A stored (uncompressed) zip written by hand, since yazl refuses to write the unsafe names we test. */
function rawZip(files: [string, Buffer][]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, data] of files) {
    const nameBytes = Buffer.from(name, "utf8");
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt32LE(crc32(data), 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt32LE(crc32(data), 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(nameBytes.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, nameBytes, data);
    centrals.push(central, nameBytes);
    offset += 30 + nameBytes.length + data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(files.length, 8);
  end.writeUInt16LE(files.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

async function refusal(bytes: Buffer): Promise<string> {
  const error = await readCardFile(bytes).catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(InteropError);
  return (error as InteropError).detail;
}

describe("reading a CHARX safely", () => {
  it("reads every file of a well-formed zip by its path", async () => {
    const files = await readCharxFiles(
      await zip([
        ["card.json", card],
        ["assets/icon/images/main.png", Buffer.from("png")],
      ]),
    );
    expect([...files.keys()]).toEqual(["card.json", "assets/icon/images/main.png"]);
  });

  it("the hand-made zip helper writes zips yauzl reads (so the refusals below are about the names)", async () => {
    const files = await readCharxFiles(rawZip([["card.json", card]]));
    expect(files.get("card.json")?.equals(card)).toBe(true);
  });

  it.each([
    ["../card.json"],
    ["assets/../../etc/passwd"],
    ["/etc/passwd"],
    ["assets\\icon\\main.png"],
  ])("refuses the unsafe path %s", async (name) => {
    expect(
      await refusal(
        rawZip([
          ["card.json", card],
          [name, Buffer.from("x")],
        ]),
      ),
    ).toMatch(/^The CHARX file has an unsafe path/);
  });

  it("refuses a zip bomb by the bytes that really come out of it", async () => {
    const bomb = await zip([
      ["card.json", card],
      ["assets/other/bomb.bin", Buffer.alloc(61 * 1024 * 1024)],
    ]);
    expect(bomb.length).toBeLessThan(1024 * 1024);
    expect(await refusal(bomb)).toBe("The CHARX file unpacks to more than 60 MB.");
  });

  it("refuses more than 1,000 entries", async () => {
    const files: [string, Buffer][] = [["card.json", card]];
    for (let index = 0; index < CHARX_MAX_ENTRIES; index++)
      files.push([`assets/other/${index}.txt`, Buffer.from("x")]);
    expect(await refusal(await zip(files, false))).toBe("The CHARX file has more than 1000 entries.");
  });

  it("refuses a zip without card.json, and a broken zip", async () => {
    expect(await refusal(await zip([["assets/icon/images/main.png", Buffer.from("x")]]))).toBe(
      'The CHARX file has no "card.json".',
    );
    const broken = await zip([["card.json", card]]);
    expect(await refusal(broken.subarray(0, broken.length - 10))).toMatch(
      /^The CHARX file is not a readable zip file/,
    );
  });

  it("refuses a file whose bytes do not match its CRC-32, naming the file", async () => {
    const good = rawZip([
      ["card.json", card],
      ["assets/icon/images/main.png", Buffer.from("a picture")],
    ]);
    // One byte of the stored picture changed after its checksum was written: a damaged or doctored zip.
    const damaged = Buffer.from(good);
    const at = damaged.indexOf("a picture");
    damaged[at] = "A".charCodeAt(0);
    expect(await refusal(damaged)).toBe(
      'The CHARX file is damaged: "assets/icon/images/main.png" does not match its checksum (CRC-32).',
    );
    // The card itself, compressed: the checksum is of the inflated bytes.
    const compressed = await zip([["card.json", card]]);
    const central = compressed.lastIndexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    compressed.writeUInt32LE((compressed.readUInt32LE(central + 16) ^ 1) >>> 0, central + 16);
    expect(await refusal(compressed)).toBe(
      'The CHARX file is damaged: "card.json" does not match its checksum (CRC-32).',
    );
    // The untouched zip reads.
    expect((await readCharxFiles(good)).get("assets/icon/images/main.png")?.toString()).toBe("a picture");
  });

  it("refuses card.json (or any path) twice instead of letting one copy win", async () => {
    const other = Buffer.from(
      JSON.stringify({ spec: "chara_card_v3", spec_version: "3.0", data: { name: "Someone else" } }),
    );
    expect(
      await refusal(
        rawZip([
          ["card.json", card],
          ["card.json", other],
        ]),
      ),
    ).toBe('The CHARX file holds "card.json" twice.');
    expect(
      await refusal(
        rawZip([
          ["card.json", card],
          ["assets/icon/images/main.png", Buffer.from("one")],
          ["assets/icon/images/main.png", Buffer.from("two")],
        ]),
      ),
    ).toBe('The CHARX file holds "assets/icon/images/main.png" twice.');
  });

  it("judges paths as a zip entry name", () => {
    expect(isSafeZipPath("assets/icon/images/main.png")).toBe(true);
    expect(isSafeZipPath("assets/")).toBe(true);
    expect(isSafeZipPath("C:/windows/x")).toBe(false);
    expect(isSafeZipPath("a//b")).toBe(false);
    expect(isSafeZipPath("./card.json")).toBe(false);
  });
});
