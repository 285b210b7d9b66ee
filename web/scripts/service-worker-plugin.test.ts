// The shell the service worker keeps from its install on: index.html's entry chunk, every chunk it imports
// (not the lazy ones, which are kept when first loaded) and their styles, plus the offline page's files.
import { describe, expect, it } from "vitest";
import { PUBLIC_SHELL, shellFiles } from "./service-worker-plugin";

type Bundle = Parameters<typeof shellFiles>[0];

function chunk(
  fileName: string,
  init: { entry?: string; imports?: string[]; dynamic?: string[]; css?: string[] },
) {
  return {
    type: "chunk",
    fileName,
    isEntry: init.entry !== undefined,
    facadeModuleId: init.entry ?? null,
    imports: init.imports ?? [],
    dynamicImports: init.dynamic ?? [],
    viteMetadata: { importedCss: new Set(init.css ?? []), importedAssets: new Set<string>() },
  };
}

const bundle = (...chunks: ReturnType<typeof chunk>[]) =>
  Object.fromEntries(chunks.map((each) => [each.fileName, each])) as unknown as Bundle;

describe("the service worker's shell", () => {
  it("is the entry chunk with its static imports and styles, never a lazy view", () => {
    const files = shellFiles(
      bundle(
        chunk("assets/index-a1.js", {
          entry: "/work/web/index.html",
          imports: ["assets/zod-b2.js", "assets/store-c3.js"],
          dynamic: ["assets/gallery-page-d4.js"],
          css: ["assets/index-e5.css"],
        }),
        chunk("assets/zod-b2.js", {}),
        chunk("assets/store-c3.js", { imports: ["assets/zod-b2.js"] }),
        chunk("assets/gallery-page-d4.js", {
          imports: ["assets/store-c3.js"],
          css: ["assets/gallery-f6.css"],
        }),
        chunk("sw.js", { entry: "/work/web/src/sw/sw.ts" }),
      ),
    );
    expect(files).toEqual([
      "/assets/index-a1.js",
      "/assets/index-e5.css",
      "/assets/store-c3.js",
      "/assets/zod-b2.js",
    ]);
  });

  it("stops the build when there is no index.html entry", () => {
    expect(() => shellFiles(bundle(chunk("sw.js", { entry: "/work/web/src/sw/sw.ts" })))).toThrow(
      /index.html/,
    );
  });

  it("keeps the offline page and everything it shows", () => {
    expect(PUBLIC_SHELL).toEqual(
      expect.arrayContaining(["/offline.html", "/offline.css", "/offline.js", "/icons/icon-192.png"]),
    );
  });
});
