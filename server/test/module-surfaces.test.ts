// Each server module's index.ts is its whole public surface (issue 41, decision 0172): the
// module-surface-only rule of .dependency-cruiser.cjs, run here on small doctored trees to show that it fails on
// a reach past a surface and passes what it allows. `npm run lint:deps` runs it over the real source.
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { cruise, type ICruiseResult, type IForbiddenRuleType } from "dependency-cruiser";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");
const config = createRequire(import.meta.url)(path.join(root, ".dependency-cruiser.cjs")) as {
  forbidden: IForbiddenRuleType[];
};
const rule = config.forbidden.find((candidate) => candidate.name === "module-surface-only")!;

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "module-surfaces-"));
  // Two real module names (the rule lists the folders of server/src) and a piece of plumbing.
  await write("server/src/credits/service.ts", "export const balance = 1;\n");
  await write("server/src/credits/index.ts", 'export { balance } from "./service";\n');
  await write("server/src/db/client.ts", "export const db = 1;\n");
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function write(file: string, text: string) {
  await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
  await writeFile(path.join(dir, file), text);
}

/** Each import the rule refuses, as "from -> to". */
async function violations(): Promise<string[]> {
  const result = await cruise(["server/src"], {
    baseDir: dir,
    ruleSet: { forbidden: [rule] },
    validate: true,
    doNotFollow: { path: "node_modules" },
  });
  return (result.output as ICruiseResult).summary.violations.map((v) => `${v.from} -> ${v.to}`).sort();
}

describe("module surfaces", () => {
  it("lets a module import another's index, its own files and plumbing", async () => {
    await write(
      "server/src/media/gallery.ts",
      'import { balance } from "../credits";\nimport { db } from "../db/client";\nimport { own } from "./own";\nexport const g = balance + db + own;\n',
    );
    await write("server/src/media/own.ts", "export const own = 1;\n");
    expect(await violations()).toEqual([]);
  });

  it("refuses a module's or the root's import of another module's other file", async () => {
    await write(
      "server/src/media/gallery.ts",
      'import { balance } from "../credits/service";\nexport const g = balance;\n',
    );
    await write(
      "server/src/app.ts",
      'import { balance } from "./credits/service";\nexport const a = balance;\n',
    );
    expect(await violations()).toEqual([
      "server/src/app.ts -> server/src/credits/service.ts",
      "server/src/media/gallery.ts -> server/src/credits/service.ts",
    ]);
  });

  it("lets plumbing and tests reach into a module", async () => {
    await write(
      "server/src/http/auth.ts",
      'import { balance } from "../credits/service";\nexport const a = balance;\n',
    );
    await write(
      "server/src/media/gallery.test.ts",
      'import { balance } from "../credits/service";\nexport const t = balance;\n',
    );
    expect(await violations()).toEqual([]);
  });
});
