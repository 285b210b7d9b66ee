// The landing art is drawn with the server's offline painter and committed: a change to the painter (or a
// scene) that is not regenerated would leave the committed pictures silently out of step with the code.
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ART_DIR, drawLandingArt } from "./generate-art";

describe("landing art", () => {
  it("matches what the script draws with the server's painter (run `npm run art` after a change)", async () => {
    const drawn = drawLandingArt();
    const committed = (await readdir(ART_DIR)).filter((file) => file.endsWith(".svg")).sort();
    expect(committed).toEqual([...drawn.keys()].sort());
    for (const [file, text] of drawn) {
      expect(await readFile(join(ART_DIR, file), "utf8"), file).toBe(text);
    }
  });
});
