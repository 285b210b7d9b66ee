// Which ffmpeg the server runs: FFMPEG_PATH, else the system's (on the PATH), else the bundled 4.1 build,
// which APP_ENV=production refuses unless ALLOW_BUNDLED_FFMPEG says otherwise.
import { chmod, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "./config";

const production = {
  APP_ENV: "production",
  SESSION_SECRET: "s".repeat(40),
  APP_URL: "https://stories.example.com",
  SMTP_URL: "smtp://mail.example.com:587",
  ALLOW_OFFLINE_AI: "1",
  PAYMENT_PROVIDER: "stripe",
  STRIPE_SECRET_KEY: "sk_live_123",
  STRIPE_WEBHOOK_SECRET: "whsec_123",
};

let systemDir: string;
let emptyDir: string;
beforeAll(async () => {
  systemDir = await mkdtemp(path.join(os.tmpdir(), "storyverse-path-"));
  emptyDir = await mkdtemp(path.join(os.tmpdir(), "storyverse-path-"));
  const binary = path.join(systemDir, "ffmpeg");
  await writeFile(binary, "#!/bin/sh\nexit 0\n");
  await chmod(binary, 0o755);
  // A file named ffmpeg that cannot be run is not an ffmpeg.
  await writeFile(path.join(emptyDir, "ffmpeg"), "not a program");
  await chmod(path.join(emptyDir, "ffmpeg"), 0o644);
});
afterAll(async () => {
  await rm(systemDir, { recursive: true, force: true });
  await rm(emptyDir, { recursive: true, force: true });
});

describe("choosing ffmpeg", () => {
  it("takes FFMPEG_PATH over anything on the PATH", () => {
    const config = loadConfig({ FFMPEG_PATH: "/opt/ffmpeg/bin/ffmpeg", PATH: systemDir });
    expect(config.ffmpeg).toEqual({ path: "/opt/ffmpeg/bin/ffmpeg", source: "FFMPEG_PATH" });
  });

  it("takes the system's ffmpeg from the PATH when FFMPEG_PATH is unset", () => {
    const config = loadConfig({ PATH: [emptyDir, "/nonexistent", systemDir].join(path.delimiter) });
    expect(config.ffmpeg).toEqual({ path: path.join(systemDir, "ffmpeg"), source: "system" });
  });

  it("falls back to the bundled build locally when there is no other", () => {
    const config = loadConfig({ PATH: emptyDir });
    expect(config.ffmpeg.source).toBe("bundled");
    expect(config.ffmpeg.path).toMatch(/@ffmpeg-installer/);
  });

  it("refuses the bundled build in production, naming ALLOW_BUNDLED_FFMPEG", () => {
    let error: unknown;
    try {
      loadConfig({ ...production, PATH: emptyDir });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(/^Invalid environment variable ALLOW_BUNDLED_FFMPEG: /);
    expect((error as Error).message).toContain("apt-get install ffmpeg");
  });

  it("lets production use the bundled build when ALLOW_BUNDLED_FFMPEG=true, or a real one without it", () => {
    const allowed = loadConfig({ ...production, PATH: emptyDir, ALLOW_BUNDLED_FFMPEG: "true" });
    expect(allowed.ffmpeg.source).toBe("bundled");
    expect(loadConfig({ ...production, PATH: systemDir }).ffmpeg.source).toBe("system");
    expect(loadConfig({ ...production, FFMPEG_PATH: "/usr/local/bin/ffmpeg" }).ffmpeg.source).toBe(
      "FFMPEG_PATH",
    );
  });
});
