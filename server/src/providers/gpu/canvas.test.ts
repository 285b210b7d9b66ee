// How an edit is cut out for a Stable Diffusion painter: what it gets is small enough to paint at its own size,
// with room around the brushed pixels, and what it paints lands only where the player brushed.
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { inpaintJob, regionAround, workSizeFor } from "./canvas";

const area = (size: { width: number; height: number }) => size.width * size.height;

describe("edits cut out for a GPU painter", () => {
  it("sends a stroke in the corner of a 2K picture as a region around it, at about one megapixel", async () => {
    const picture = await sharp({ create: { width: 2048, height: 1536, channels: 3, background: "#102030" } })
      .png()
      .toBuffer();
    // A thin stroke along the bottom-right corner.
    const mask = await sharp({
      create: { width: 2048, height: 1536, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } },
    })
      .composite([
        {
          input: await sharp({
            create: { width: 300, height: 6, channels: 4, background: { r: 255, g: 255, b: 255, alpha: 1 } },
          })
            .png()
            .toBuffer(),
          left: 1740,
          top: 1525,
        },
      ])
      .png()
      .toBuffer();
    const job = await inpaintJob({ image: { data: picture, mimeType: "image/png" }, mask });
    expect(area(job.size)).toBeGreaterThan(900_000);
    expect(area(job.size)).toBeLessThan(1_200_000);
    expect(job.size.width % 8).toBe(0);
    expect(job.size.height % 8).toBe(0);
    // A stroke 50 times wider than tall still gets a region no more than three times wider than tall.
    expect(job.size.width / job.size.height).toBeLessThanOrEqual(3.05);

    // The painter paints the whole region red; only the stroke's pixels come back red.
    const red = await sharp({
      create: { width: job.size.width, height: job.size.height, channels: 3, background: "#ff0000" },
    })
      .png()
      .toBuffer();
    const { data, info } = await sharp(await job.finish(red))
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    expect({ width: info.width, height: info.height }).toEqual({ width: 2048, height: 1536 });
    const at = (x: number, y: number) => [...data.subarray((y * 2048 + x) * 3, (y * 2048 + x) * 3 + 3)];
    expect(at(1800, 1528)).toEqual([255, 0, 0]);
    expect(at(1800, 1520)).toEqual([0x10, 0x20, 0x30]);
    expect(at(1700, 1528)).toEqual([0x10, 0x20, 0x30]);
  });

  it("keeps a region inside the picture and gives a thin stroke room on every side it can", () => {
    const region = regionAround({ left: 10, top: 500, width: 200, height: 4 }, 1024, 1024);
    expect(region.left).toBe(0);
    expect(region.top).toBeLessThan(500 - 32);
    expect(region.top + region.height).toBeGreaterThan(504 + 32);
    expect(region.width / region.height).toBeLessThanOrEqual(3);
    expect(workSizeFor(1024, 1024)).toEqual({ width: 1024, height: 1024 });
  });
});
