// What an operator meets when they bring their own ComfyUI workflows (COMFYUI_WORKFLOW_DIR): a mistake in a
// file stops the start with a message saying which file and what to change, before any player pays.
import { mkdtemp, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { checkWorkflow, fillWorkflow, readWorkflowDir, shippedWorkflows, WorkflowError } from "./workflows";

async function folderWith(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "storyverse-workflows-"));
  for (const [name, text] of Object.entries(files)) await writeFile(path.join(dir, name), text);
  return dir;
}

describe("ComfyUI workflows", () => {
  it("takes the operator's files by kind, and only those", async () => {
    const own = structuredClone(shippedWorkflows.txt2img);
    own["7"]!.inputs.filename_prefix = "mine/picture";
    const dir = await folderWith({ "txt2img.json": JSON.stringify(own), "notes.txt": "not a workflow" });
    const found = readWorkflowDir(dir);
    expect(Object.keys(found)).toEqual(["txt2img"]);
    expect(found.txt2img?.["7"]?.inputs.filename_prefix).toBe("mine/picture");
  });

  it("explains a workflow saved in the editor's format instead of the API format", async () => {
    const dir = await folderWith({ "inpaint.json": JSON.stringify({ nodes: [], links: [], version: 0.4 }) });
    expect(() => readWorkflowDir(dir)).toThrow(/^inpaint\.json: .*Save \(API Format\)/);
  });

  it("names a missing placeholder, an unknown one, a file that is not JSON and an empty folder", async () => {
    const withoutMask = structuredClone(shippedWorkflows.inpaint);
    withoutMask["5"]!.inputs.image = "mask.png";
    expect(() => checkWorkflow("inpaint", withoutMask)).toThrow(
      "the inpaint workflow needs the placeholder {{mask}}",
    );
    const typo = structuredClone(shippedWorkflows.txt2img);
    typo["5"]!.inputs.seed = "{{sede}}";
    expect(() => checkWorkflow("txt2img", typo)).toThrow(/^unknown placeholder \{\{sede\}\}/);
    const broken = await folderWith({ "upscale.json": "{ not json" });
    expect(() => readWorkflowDir(broken)).toThrow(/^upscale\.json is not JSON/);
    const empty = await folderWith({});
    expect(() => readWorkflowDir(empty)).toThrow(/^no workflow in .*txt2img\.json/);
    expect(() => readWorkflowDir(path.join(empty, "missing"))).toThrow(WorkflowError);
  });

  it("fills whole values with their type and placeholders inside text as text, leaving the template as it was", () => {
    const template = checkWorkflow("txt2img", {
      "1": { class_type: "CLIPTextEncode", inputs: { text: "a watercolour of {{prompt}}, seed {{ seed }}" } },
      "2": { class_type: "KSampler", inputs: { seed: "{{seed}}", denoise: "{{denoise}}", model: ["3", 0] } },
    });
    const filled = fillWorkflow(template, { prompt: "a fox", seed: 42, denoise: 0.5 });
    expect(filled["1"]!.inputs.text).toBe("a watercolour of a fox, seed 42");
    expect(filled["2"]!.inputs).toEqual({ seed: 42, denoise: 0.5, model: ["3", 0] });
    expect(template["2"]!.inputs.seed).toBe("{{seed}}");
  });
});
