import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "./config";

describe("loadConfig", () => {
  it("uses the documented defaults on an empty environment", () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      host: "0.0.0.0",
      dataDir: path.resolve("./data"),
      databaseUrl: undefined,
      appUrl: "http://localhost:3000",
      appEnv: "local",
      logLevel: "info",
      worker: "on",
    });
  });

  it("reads every variable it documents", () => {
    const config = loadConfig({
      PORT: "8080",
      HOST: "127.0.0.1",
      DATA_DIR: "/var/lib/storyverse",
      DATABASE_URL: "postgres://app@db:5432/app",
      REDIS_URL: "redis://cache:6379/2",
      APP_URL: "https://stories.example.com/",
      APP_ENV: "production",
      LOG_LEVEL: "warn",
      WORKER: "off",
      TRUST_PROXY: "1",
      SESSION_SECRET: "x".repeat(32),
      REQUIRE_EMAIL_VERIFICATION: "false",
      SMTP_URL: "smtps://user:pass@mail.example.com:465",
      MAIL_FROM: "Stories <hello@example.com>",
      ALLOW_OFFLINE_AI: "1",
      PAYMENT_PROVIDER: "stripe",
      STRIPE_SECRET_KEY: "sk_live_abc",
      STRIPE_WEBHOOK_SECRET: "whsec_abc",
      FFMPEG_PATH: "/opt/ffmpeg/bin/ffmpeg",
    });
    expect(config).toMatchObject({
      port: 8080,
      host: "127.0.0.1",
      dataDir: "/var/lib/storyverse",
      databaseUrl: "postgres://app@db:5432/app",
      redisUrl: "redis://cache:6379/2",
      appUrl: "https://stories.example.com",
      appEnv: "production",
      ffmpeg: { path: "/opt/ffmpeg/bin/ffmpeg", source: "FFMPEG_PATH" },
      logLevel: "warn",
      worker: "off",
      trustProxy: 1,
      sessionSecret: "x".repeat(32),
      requireEmailVerification: false,
      smtpUrl: "smtps://user:pass@mail.example.com:465",
      mailFrom: "Stories <hello@example.com>",
      payments: {
        provider: "stripe",
        secretKey: "sk_live_abc",
        webhookSecret: "whsec_abc",
        apiBase: undefined,
      },
    });
  });

  it.each([
    ["false", false],
    ["0", false],
    ["1", 1],
    ["2", 2],
    ["10.0.0.0/8,127.0.0.1", ["10.0.0.0/8", "127.0.0.1"]],
    [" 192.168.1.10 , fd00::/8 ", ["192.168.1.10", "fd00::/8"]],
    ["true", true],
  ] as const)("reads TRUST_PROXY=%s as a hop count or proxy list", (value, expected) => {
    expect(loadConfig({ TRUST_PROXY: value }).trustProxy).toEqual(expected);
  });

  it.each(["10.0.0.0/33", "proxy.local", "1,2", "-1", "10.0.0.0/8,"])("rejects TRUST_PROXY=%s", (value) => {
    expect(() => loadConfig({ TRUST_PROXY: value })).toThrow(
      /^Invalid environment variable TRUST_PROXY: must be a hop count/,
    );
  });

  it.each([
    ["SMTP_URL", "http://mailer:hunter2-pass@mail.example.com"],
    ["DATABASE_URL", "mysql://root:hunter2-pass@db:3306/app"],
    ["REDIS_URL", "memcached://:hunter2-pass@cache:11211"],
    ["STRIPE_WEBHOOK_SECRET", "hunter2-pass"],
    ["STRIPE_SECRET_KEY", "pk_live_hunter2-pass"],
    ["SESSION_SECRET", "hunter2-pass"],
    ["S3_ENDPOINT", "minio://key:hunter2-pass@"],
    ["APP_URL", "https://admin:hunter2-pass@"],
  ])("names %s and its rule but never prints a secret value or URL credentials", (name, value) => {
    let message = "";
    try {
      loadConfig({ [name]: value });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(new RegExp(`^Invalid environment variable ${name}: `));
    expect(message).not.toContain("hunter2");
  });

  it("still shows a harmless wrong value, to help fix it", () => {
    expect(() => loadConfig({ PORT: "abc" })).toThrow(
      'Invalid environment variable PORT: must be a number (got "abc")',
    );
  });

  it("keeps the PostgreSQL read cache on unless READ_CACHE turns it off", () => {
    expect(loadConfig({}).readCache).toBe(true);
    expect(loadConfig({ READ_CACHE: "false" }).readCache).toBe(false);
  });

  it("treats empty strings as unset", () => {
    expect(loadConfig({ PORT: "", DATABASE_URL: "" })).toMatchObject({ port: 3000, databaseUrl: undefined });
  });

  it.each([
    ["PORT", "abc"],
    ["PORT", "70000"],
    ["PORT", "3.5"],
    ["APP_ENV", "staging"],
    ["LOG_LEVEL", "loud"],
    ["DATABASE_URL", "mysql://x"],
    ["REDIS_URL", "localhost:6379"],
    ["OFFLINE_MEDIA_SCALE", "2"],
    ["APP_URL", "not a url"],
    ["WORKER", "maybe"],
    ["READ_CACHE", "sometimes"],
    ["TRUST_PROXY", "perhaps"],
    ["SESSION_SECRET", "short"],
    ["REQUIRE_EMAIL_VERIFICATION", "sometimes"],
    ["SMTP_URL", "http://mail"],
    ["TEXT_PROVIDER", "gpt"],
    ["IMAGE_PROVIDER", "dalle"],
    ["VIDEO_PROVIDER", "a1111"],
    ["MEDIA_STORAGE", "ftp"],
    ["PROVIDER_TIMEOUT_SECONDS", "0"],
    ["PAYMENT_PROVIDER", "paypal"],
    ["STRIPE_SECRET_KEY", "pk_test_publishable"],
    ["STRIPE_WEBHOOK_SECRET", "secret"],
    ["STRIPE_API_BASE", "ftp://stripe.local"],
    ["TTS_PROVIDER", "espeak"],
    ["TTS_BASE_URL", "not a url"],
  ])("rejects %s=%s with one line naming the variable", (name, value) => {
    let error: unknown;
    try {
      loadConfig({ [name]: value });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message).toContain(name);
    expect(message).not.toContain("\n");
  });

  it.each([
    ["TEXT_API_KEY", { TEXT_PROVIDER: "byteplus" }],
    ["IMAGE_API_KEY", { IMAGE_PROVIDER: "replicate" }],
    ["VIDEO_API_KEY", { VIDEO_PROVIDER: "byteplus" }],
    ["SPEECH_API_KEY", { SPEECH_PROVIDER: "openai" }],
    ["TTS_API_KEY", { TTS_PROVIDER: "elevenlabs" }],
    ["TTS_API_KEY", { TTS_PROVIDER: "openai" }],
    ["S3_BUCKET", { MEDIA_STORAGE: "s3" }],
    ["STRIPE_SECRET_KEY", { PAYMENT_PROVIDER: "stripe", STRIPE_WEBHOOK_SECRET: "whsec_x" }],
    ["STRIPE_WEBHOOK_SECRET", { PAYMENT_PROVIDER: "stripe", STRIPE_SECRET_KEY: "sk_test_x" }],
  ])("asks for %s when a provider or store needs it", (name, env) => {
    expect(() => loadConfig(env)).toThrow(new RegExp(`^Invalid environment variable ${name}`));
  });

  it("lets an OpenAI-compatible server on a custom base URL run without a key (Ollama, vLLM)", () => {
    const config = loadConfig({
      TEXT_PROVIDER: "openai",
      TEXT_BASE_URL: "http://localhost:11434/v1",
      TEXT_MODEL: "llama3",
    });
    expect(config.providers.text).toEqual({
      kind: "openai",
      apiKey: undefined,
      baseUrl: "http://localhost:11434/v1",
      model: "llama3",
    });
  });

  it("points at the operator's own GPU without a key: AUTOMATIC1111 or ComfyUI, and ComfyUI video", () => {
    const a1111 = loadConfig({
      IMAGE_PROVIDER: "a1111",
      IMAGE_BASE_URL: "http://gpu.lan:7860",
      IMAGE_UPSCALER: "4x-UltraSharp",
    });
    expect(a1111.providers.image).toEqual({
      kind: "a1111",
      apiKey: undefined,
      baseUrl: "http://gpu.lan:7860",
      model: undefined,
    });
    expect(a1111.providers.imageUpscaler).toBe("4x-UltraSharp");
    const comfy = loadConfig({
      IMAGE_PROVIDER: "comfyui",
      VIDEO_PROVIDER: "comfyui",
      IMAGE_API_KEY: "user:password",
    });
    expect(comfy.providers.image).toMatchObject({ kind: "comfyui", apiKey: "user:password" });
    expect(comfy.providers.video).toMatchObject({ kind: "comfyui", apiKey: undefined });
    expect(comfy.providers.comfyuiWorkflows).toBeUndefined();
  });

  it("takes Replicate's inpainting and upscale models by name or pinned version, and refuses anything else", () => {
    const pinned = `nightmareai/real-esrgan:${"a".repeat(64)}`;
    const replicate = loadConfig({
      IMAGE_PROVIDER: "replicate",
      IMAGE_API_KEY: "r8_key",
      REPLICATE_INPAINT_MODEL: "stability-ai/stable-diffusion-inpainting",
      REPLICATE_UPSCALE_MODEL: pinned,
    });
    expect(replicate.providers.replicateInpaintModel).toBe("stability-ai/stable-diffusion-inpainting");
    expect(replicate.providers.replicateUpscaleModel).toBe(pinned);
    expect(loadConfig({}).providers.replicateInpaintModel).toBeUndefined();
    expect(() => loadConfig({ REPLICATE_UPSCALE_MODEL: "real-esrgan" })).toThrow(
      /REPLICATE_UPSCALE_MODEL.*must be owner\/name or owner\/name:version/,
    );
  });

  it("reads the operator's ComfyUI workflows at start, and stops on one it cannot use, naming the file", () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "storyverse-comfy-"));
    const workflow = {
      "1": { class_type: "CheckpointLoaderSimple", inputs: { ckpt_name: "{{checkpoint}}" } },
      "2": { class_type: "CLIPTextEncode", inputs: { text: "{{prompt}}", clip: ["1", 1] } },
    };
    writeFileSync(path.join(dir, "txt2img.json"), JSON.stringify(workflow));
    const env = { IMAGE_PROVIDER: "comfyui", COMFYUI_WORKFLOW_DIR: dir };
    expect(loadConfig(env).providers.comfyuiWorkflows).toEqual({ txt2img: workflow });
    // Ignored while ComfyUI is not in use.
    expect(loadConfig({ COMFYUI_WORKFLOW_DIR: dir }).providers.comfyuiWorkflows).toBeUndefined();

    writeFileSync(path.join(dir, "img2img.json"), JSON.stringify(workflow));
    let error: unknown;
    try {
      loadConfig(env);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toBe(
      "Invalid environment variable COMFYUI_WORKFLOW_DIR: img2img.json: the img2img workflow needs the placeholder {{image}}",
    );
    expect(() => loadConfig({ ...env, COMFYUI_WORKFLOW_DIR: path.join(dir, "missing") })).toThrow(
      /^Invalid environment variable COMFYUI_WORKFLOW_DIR: cannot read the folder/,
    );
  });

  it("speaks offline by default, and reads the TTS settings", () => {
    expect(loadConfig({}).providers.voice).toEqual({
      kind: "offline",
      apiKey: undefined,
      baseUrl: undefined,
      model: undefined,
    });
    expect(loadConfig({ TTS_PROVIDER: "none" }).providers.voice.kind).toBe("none");
    expect(
      loadConfig({ TTS_PROVIDER: "elevenlabs", TTS_API_KEY: "sk_el", TTS_MODEL: "eleven_flash_v2_5" })
        .providers.voice,
    ).toEqual({ kind: "elevenlabs", apiKey: "sk_el", baseUrl: undefined, model: "eleven_flash_v2_5" });
    expect(() => loadConfig({ TTS_PROVIDER: "espeak" })).toThrow(
      /^Invalid environment variable TTS_PROVIDER: must be offline, openai, elevenlabs or none/,
    );
  });

  it("keeps recall to text search by default, and reads the EMBEDDINGS settings", () => {
    expect(loadConfig({}).providers.embeddings?.kind).toBe("none");
    expect(
      loadConfig({
        EMBEDDINGS_PROVIDER: "openai",
        EMBEDDINGS_API_KEY: "sk-emb",
        EMBEDDINGS_MODEL: "text-embedding-3-large",
      }).providers.embeddings,
    ).toEqual({ kind: "openai", apiKey: "sk-emb", baseUrl: undefined, model: "text-embedding-3-large" });
    // Ollama's embeddings need no key on a custom base URL; OpenAI's do.
    expect(
      loadConfig({ EMBEDDINGS_PROVIDER: "openai", EMBEDDINGS_BASE_URL: "http://localhost:11434/v1" })
        .providers.embeddings?.apiKey,
    ).toBeUndefined();
    expect(() => loadConfig({ EMBEDDINGS_PROVIDER: "openai" })).toThrow(
      /^Invalid environment variable EMBEDDINGS_API_KEY: required when EMBEDDINGS_PROVIDER=openai/,
    );
    expect(() => loadConfig({ EMBEDDINGS_PROVIDER: "pgvector" })).toThrow(
      /^Invalid environment variable EMBEDDINGS_PROVIDER: must be none or openai/,
    );
  });

  it("lets a self-hosted OpenAI-compatible speech server run without a key (Kokoro-FastAPI)", () => {
    const config = loadConfig({
      TTS_PROVIDER: "openai",
      TTS_BASE_URL: "http://localhost:8880/v1",
      TTS_MODEL: "kokoro",
    });
    expect(config.providers.voice).toEqual({
      kind: "openai",
      apiKey: undefined,
      baseUrl: "http://localhost:8880/v1",
      model: "kokoro",
    });
  });

  it("uses the sandbox payment provider by default, and Stripe (optionally at another address) when asked", () => {
    expect(loadConfig({}).payments).toEqual({ provider: "sandbox" });
    const stripe = loadConfig({
      PAYMENT_PROVIDER: "stripe",
      STRIPE_SECRET_KEY: "sk_test_123",
      STRIPE_WEBHOOK_SECRET: "whsec_456",
      STRIPE_API_BASE: "http://127.0.0.1:4242",
    }).payments;
    expect(stripe).toEqual({
      provider: "stripe",
      secretKey: "sk_test_123",
      webhookSecret: "whsec_456",
      apiBase: { host: "127.0.0.1", port: 4242, protocol: "http" },
    });
  });

  describe("APP_ENV=production", () => {
    const safe = {
      APP_ENV: "production",
      SESSION_SECRET: "s".repeat(40),
      APP_URL: "https://stories.example.com",
      SMTP_URL: "smtp://mail.example.com:587",
      ALLOW_OFFLINE_AI: "1",
      PAYMENT_PROVIDER: "stripe",
      STRIPE_SECRET_KEY: "sk_live_123",
      STRIPE_WEBHOOK_SECRET: "whsec_123",
      FFMPEG_PATH: "/usr/bin/ffmpeg",
    };

    it("starts with every production setting in place", () => {
      expect(loadConfig(safe).appEnv).toBe("production");
    });

    it.each([
      ["SESSION_SECRET", { SESSION_SECRET: undefined }],
      ["APP_URL", { APP_URL: undefined }],
      ["SMTP_URL", { SMTP_URL: undefined }],
      ["ALLOW_OFFLINE_AI", { ALLOW_OFFLINE_AI: undefined }],
      ["PAYMENT_PROVIDER", { PAYMENT_PROVIDER: undefined }],
      ["PAYMENT_PROVIDER", { PAYMENT_PROVIDER: "sandbox" }],
    ])("refuses to start without %s, naming it", (name, change) => {
      expect(() => loadConfig({ ...safe, ...change })).toThrow(
        new RegExp(`^Invalid environment variable ${name}`),
      );
    });

    it("starts on real providers without ALLOW_OFFLINE_AI", () => {
      const real = {
        ...safe,
        ALLOW_OFFLINE_AI: undefined,
        TEXT_PROVIDER: "openai",
        TEXT_API_KEY: "sk-test",
        IMAGE_PROVIDER: "byteplus",
        IMAGE_API_KEY: "ark-test",
        VIDEO_PROVIDER: "replicate",
        VIDEO_API_KEY: "r8-test",
      };
      expect(loadConfig(real).providers.video).toMatchObject({ kind: "replicate", apiKey: "r8-test" });
      // The offline voice is real speech (eSpeak NG), so it needs no ALLOW_OFFLINE_AI.
      expect(loadConfig(real).providers.voice.kind).toBe("offline");
    });

    it("refuses the sandbox payment provider in one line that names PAYMENT_PROVIDER", () => {
      let message = "";
      try {
        loadConfig({ ...safe, PAYMENT_PROVIDER: "sandbox" });
      } catch (error) {
        message = (error as Error).message;
      }
      expect(message).toMatch(/^Invalid environment variable PAYMENT_PROVIDER: .*PAYMENT_PROVIDER=stripe/);
      expect(message).not.toContain("\n");
    });

    it("refuses TRUST_PROXY=true, saying what to set instead", () => {
      expect(() => loadConfig({ ...safe, TRUST_PROXY: "true" })).toThrow(
        /^Invalid environment variable TRUST_PROXY: .*TRUST_PROXY=1.*TRUST_PROXY=10\.0\.0\.0\/8,127\.0\.0\.1/,
      );
      expect(loadConfig({ ...safe, TRUST_PROXY: "1" }).trustProxy).toBe(1);
    });

    it.each([
      ["STRIPE_SECRET_KEY", { STRIPE_SECRET_KEY: "sk_test_123" }],
      ["STRIPE_SECRET_KEY", { STRIPE_SECRET_KEY: "rk_test_123" }],
      ["STRIPE_API_BASE", { STRIPE_API_BASE: "http://127.0.0.1:4242" }],
    ])("refuses Stripe test mode (%s) unless ALLOW_STRIPE_TEST_MODE says so", (name, change) => {
      expect(() => loadConfig({ ...safe, ...change })).toThrow(
        new RegExp(`^Invalid environment variable ${name}: .*ALLOW_STRIPE_TEST_MODE=1`),
      );
      expect(loadConfig({ ...safe, ...change, ALLOW_STRIPE_TEST_MODE: "1" }).payments.provider).toBe(
        "stripe",
      );
    });

    it("allows the log mailer when email verification is off", () => {
      expect(
        loadConfig({ ...safe, SMTP_URL: undefined, REQUIRE_EMAIL_VERIFICATION: "false" }).smtpUrl,
      ).toBeUndefined();
    });
  });
});
