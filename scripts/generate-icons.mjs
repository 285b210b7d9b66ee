// Draws the installed app's icons (web/public/icons/*.png) from the favicon's artwork with sharp, offline:
// `node scripts/generate-icons.mjs`, then commit the PNGs. "any" icons keep the favicon's rounded square on a
// transparent ground; the maskable ones fill the whole square with the gradient and draw the star at 80% so it
// stays inside the safe zone (the middle circle of 80% of the width) whatever shape a launcher cuts.
// web/src/sw/icons.test.ts checks the files against the manifest.
import { mkdirSync } from "node:fs";
import path from "node:path";
import sharp from "sharp";

const out = path.resolve(import.meta.dirname, "../web/public/icons");

const gradient =
  '<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#8b5cf6"/>' +
  '<stop offset="1" stop-color="#c026d3"/></linearGradient></defs>';
const star =
  '<path d="M32 12l4.6 12.4L49 29l-12.4 4.6L32 46l-4.6-12.4L15 29l12.4-4.6z" fill="#fff"/>' +
  '<circle cx="47" cy="46" r="3.5" fill="#fff" opacity=".85"/><circle cx="18" cy="47" r="2.2" fill="#fff" opacity=".7"/>';

const any = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64">${gradient}<rect width="64" height="64" rx="16" fill="url(#g)"/>${star}</svg>`;
const full = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64">${gradient}<rect width="64" height="64" fill="url(#g)"/><g transform="translate(6.4 6.4) scale(0.8)">${star}</g></svg>`;

const icons = [
  ["icon-192.png", any, 192],
  ["icon-512.png", any, 512],
  ["maskable-192.png", full, 192],
  ["maskable-512.png", full, 512],
  ["apple-touch-icon.png", full, 180],
];

mkdirSync(out, { recursive: true });
for (const [file, svg, size] of icons) {
  await sharp(Buffer.from(svg), { density: (72 * size) / 64 })
    .resize(size, size)
    .png({ compressionLevel: 9 })
    .toFile(path.join(out, file));
  console.log(`wrote web/public/icons/${file} (${size}x${size})`);
}
