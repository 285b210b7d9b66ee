// No cycle between modules (issue 41): two server modules that need each other, directly or round a loop of
// others, are one piece in two folders. dependency-cruiser resolves the imports; the modules' strongly connected
// parts, plumbing left out (every module may use db, http, jobs, mail, platform and providers, and the root
// composes them), say which imports lie on a cycle, each named. The rule came as a ratchet of 58 such imports
// (decision 0170) and holds with none since the root composes what modules would otherwise ask each other for
// (decision 0171).
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { cruise, type ICruiseResult } from "dependency-cruiser";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");

const PLUMBING = ["db", "http", "jobs", "mail", "platform", "providers"];

/** Each "a -> b" where module a imports module b and b leads back to a (both in one strongly connected part). */
async function moduleCycleEdges(baseDir: string): Promise<string[]> {
  const result = await cruise(["server/src"], {
    baseDir,
    exclude: { path: ["\\.test\\.ts$", `^server/src/(${PLUMBING.join("|")})/`, "^server/src/[^/]+\\.ts$"] },
    tsPreCompilationDeps: true,
    doNotFollow: { path: "node_modules" },
  });
  const moduleOf = (file: string) => /^server\/src\/([^/]+)\//.exec(file)?.[1];
  const imports = new Map<string, Set<string>>();
  for (const source of (result.output as ICruiseResult).modules) {
    const from = moduleOf(source.source);
    if (!from) continue;
    const targets = imports.get(from) ?? new Set<string>();
    imports.set(from, targets);
    for (const dependency of source.dependencies) {
      const to = moduleOf(dependency.resolved);
      if (to && to !== from && !PLUMBING.includes(to)) targets.add(to);
    }
  }
  const part = stronglyConnectedParts(imports);
  const edges = [...imports].flatMap(([from, targets]) =>
    [...targets].filter((to) => part.get(to) === part.get(from)).map((to) => `${from} -> ${to}`),
  );
  return edges.sort();
}

/** Tarjan's algorithm: each node's strongly connected part, as a number. */
function stronglyConnectedParts(graph: Map<string, Set<string>>): Map<string, number> {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const part = new Map<string, number>();
  let next = 0;
  const visit = (node: string) => {
    index.set(node, next);
    low.set(node, next);
    next += 1;
    stack.push(node);
    for (const to of graph.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node)!, low.get(to)!));
      } else if (!part.has(to)) low.set(node, Math.min(low.get(node)!, index.get(to)!));
    }
    if (low.get(node) === index.get(node)) {
      const id = part.size;
      for (let member = stack.pop(); member !== undefined; member = stack.pop()) {
        part.set(member, id);
        if (member === node) break;
      }
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return part;
}

describe("cycles between modules", () => {
  it("finds no import that lies on a cycle between modules", async () => {
    expect(await moduleCycleEdges(root)).toEqual([]);
  });

  it("fails on two modules that import each other, and not on plumbing both use", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "module-cycles-"));
    try {
      const write = async (file: string, text: string) => {
        await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
        await writeFile(path.join(dir, file), text);
      };
      await write("server/src/db/client.ts", "export const db = 1;\n");
      await write(
        "server/src/lore/cards.ts",
        'import { db } from "../db/client";\nexport const cards = db;\n',
      );
      await write(
        "server/src/tales/turn.ts",
        'import { db } from "../db/client";\nexport const turn = db;\n',
      );
      expect(await moduleCycleEdges(dir)).toEqual([]);
      await write(
        "server/src/lore/cards.ts",
        'import { turn } from "../tales/turn";\nexport const cards = turn;\n',
      );
      await write(
        "server/src/tales/teller.ts",
        'import { cards } from "../lore/cards";\nexport const t = cards;\n',
      );
      expect(await moduleCycleEdges(dir)).toEqual(["lore -> tales", "tales -> lore"]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
