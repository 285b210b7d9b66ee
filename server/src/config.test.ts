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
      APP_URL: "https://stories.example.com/",
      APP_ENV: "production",
      LOG_LEVEL: "warn",
      WORKER: "off",
    });
    expect(config).toMatchObject({
      port: 8080,
      host: "127.0.0.1",
      dataDir: "/var/lib/storyverse",
      databaseUrl: "postgres://app@db:5432/app",
      appUrl: "https://stories.example.com",
      appEnv: "production",
      logLevel: "warn",
      worker: "off",
    });
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
    ["APP_URL", "not a url"],
    ["WORKER", "maybe"],
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
});
