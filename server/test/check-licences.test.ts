// scripts/check-licences.mjs (run by `npm run lint`): every production dependency in package-lock.json must
// carry a licence compatible with AGPL-3.0-or-later. Run on small fake projects.
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";

const script = path.resolve(import.meta.dirname, "../../scripts/check-licences.mjs");
const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

type Entry = { version?: string; license?: string; dev?: boolean; link?: boolean; resolved?: string };

/** A project folder with the given lockfile packages (and an AGPL root and workspace unless told). */
async function project(packages: Record<string, Entry>, ownLicence = "AGPL-3.0-or-later") {
  const dir = await mkdtemp(path.join(os.tmpdir(), "storyverse-licences-"));
  dirs.push(dir);
  await mkdir(path.join(dir, "app"));
  await writeFile(path.join(dir, "package.json"), JSON.stringify({ name: "x", license: ownLicence }));
  await writeFile(
    path.join(dir, "app", "package.json"),
    JSON.stringify({ name: "app", license: ownLicence }),
  );
  const lockfile = {
    name: "x",
    lockfileVersion: 3,
    packages: {
      "": { name: "x", workspaces: ["app"] },
      app: { name: "app" },
      "node_modules/app": { resolved: "app", link: true },
      ...packages,
    },
  };
  await writeFile(path.join(dir, "package-lock.json"), JSON.stringify(lockfile));
  return dir;
}

async function check(dir: string): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [script], { cwd: dir });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, output: failed.stdout + failed.stderr };
  }
}

describe("the licence check", () => {
  it("passes a compatible set: permissive, weak copyleft, GPL-3.0+ and SPDX expressions", async () => {
    const dir = await project({
      "node_modules/a": { version: "1.0.0", license: "MIT" },
      "node_modules/b": { version: "1.0.0", license: "Apache-2.0 AND LGPL-3.0-or-later" },
      "node_modules/c": { version: "1.0.0", license: "(MIT OR CC0-1.0)" },
      "node_modules/d": { version: "1.0.0", license: "BlueOak-1.0.0" },
      "node_modules/e/node_modules/f": { version: "2.0.0", license: "(SSPL-1.0 OR ISC)" },
      "node_modules/g": { version: "1.0.0", license: "GPL-3.0-or-later" },
      "node_modules/h": { version: "1.0.0", license: "LGPL-2.1" },
      // Dev-only packages are not shipped: not checked.
      "node_modules/tool": { version: "1.0.0", license: "SSPL-1.0", dev: true },
    });
    const result = await check(dir);
    expect(result.output).toContain("compatible with AGPL-3.0-or-later");
    expect(result.code).toBe(0);
  });

  it("fails naming a production dependency whose licence is incompatible", async () => {
    const dir = await project({
      "node_modules/fine": { version: "1.0.0", license: "MIT" },
      "node_modules/closed": { version: "3.1.0", license: "SSPL-1.0" },
      "node_modules/mixed": { version: "1.2.0", license: "MIT AND BUSL-1.1" },
      "node_modules/old-gpl": { version: "0.1.0", license: "GPL-2.0-only" },
    });
    const result = await check(dir);
    expect(result.code).toBe(1);
    expect(result.output).toContain("closed@3.1.0: SSPL-1.0 is not compatible with AGPL-3.0-or-later");
    expect(result.output).toContain("mixed@1.2.0: MIT AND BUSL-1.1 is not compatible");
    expect(result.output).toContain("old-gpl@0.1.0: GPL-2.0-only is not compatible");
    expect(result.output).not.toContain("fine@");
  });

  it("fails on a missing or non-SPDX licence unless the package was reviewed", async () => {
    const dir = await project({
      "node_modules/anonymous": { version: "1.0.0" },
      "node_modules/odd": { version: "1.0.0", license: "SEE LICENSE IN LICENSE.txt" },
      // Reviewed in the script: no licence field, MIT by its LICENSE file.
      "node_modules/png-js": { version: "2.0.0" },
    });
    const result = await check(dir);
    expect(result.code).toBe(1);
    expect(result.output).toContain("anonymous@1.0.0: no licence in package-lock.json");
    expect(result.output).toContain('odd@1.0.0: "SEE LICENSE IN LICENSE.txt" is not an SPDX expression');
    expect(result.output).not.toContain("png-js");
  });

  it("fails when the project's own package.json files do not say AGPL-3.0-or-later", async () => {
    const dir = await project({ "node_modules/a": { version: "1.0.0", license: "MIT" } }, "MIT");
    const result = await check(dir);
    expect(result.code).toBe(1);
    expect(result.output).toMatch(/app\/package\.json: "license" must be "AGPL-3.0-or-later"/);
  });
});
