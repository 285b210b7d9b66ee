// ComfyUI workflows in its API format (decision 0156): one per kind of job, shipped in ./workflows/ or the
// operator's own from COMFYUI_WORKFLOW_DIR (a file of the same name replaces the shipped one). A workflow says
// where the request goes by placeholders: an input whose whole value is "{{seed}}" gets the number, and a
// placeholder inside a longer text ("a watercolour of {{prompt}}") is replaced in it. Workflows are checked
// once, at start: API format, the placeholders the kind needs, and no placeholder we would not fill.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import img2img from "./workflows/img2img.json" with { type: "json" };
import img2video from "./workflows/img2video.json" with { type: "json" };
import inpaint from "./workflows/inpaint.json" with { type: "json" };
import txt2img from "./workflows/txt2img.json" with { type: "json" };
import upscale from "./workflows/upscale.json" with { type: "json" };

export type ComfyNode = { class_type: string; inputs: Record<string, unknown>; _meta?: unknown };
/** A workflow graph in ComfyUI's API format: node id to node. */
export type ComfyWorkflow = Record<string, ComfyNode>;

export const WORKFLOW_KINDS = ["txt2img", "img2img", "inpaint", "upscale", "img2video"] as const;
export type WorkflowKind = (typeof WORKFLOW_KINDS)[number];
export type ComfyWorkflows = Record<WorkflowKind, ComfyWorkflow>;

/** Every placeholder a workflow may use, and what fills it. */
export const PLACEHOLDERS = {
  prompt: "the picture's or clip's prompt",
  negative_prompt: "what to avoid",
  seed: "the seed (a whole number)",
  width: "the width to paint at, in pixels",
  height: "the height to paint at, in pixels",
  checkpoint: "IMAGE_MODEL (VIDEO_MODEL in img2video)",
  image: "an uploaded picture's name, for LoadImage",
  mask: "an uploaded mask's name (white: repaint), for LoadImageMask with channel red",
  denoise: "how much to repaint, 0 to 1",
  upscale_model: "IMAGE_UPSCALER, for UpscaleModelLoader",
  frames: "the clip's length in frames",
  fps: "the clip's frames per second",
} as const;
export type Placeholder = keyof typeof PLACEHOLDERS;
export type PlaceholderValues = Partial<Record<Placeholder, string | number>>;

/** The placeholders each kind must have: without them the request could not reach the workflow. */
const REQUIRED: Record<WorkflowKind, Placeholder[]> = {
  txt2img: ["prompt"],
  img2img: ["prompt", "image"],
  inpaint: ["prompt", "image", "mask"],
  upscale: ["image"],
  img2video: ["image"],
};

const PATTERN = /\{\{\s*([a-z_]+)\s*\}\}/g;

/** Thrown for a workflow that cannot be used; the message says what is wrong with it. */
export class WorkflowError extends Error {}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Every placeholder used anywhere in the workflow's inputs. */
export function placeholdersOf(workflow: ComfyWorkflow): Set<string> {
  const found = new Set<string>();
  const visit = (value: unknown): void => {
    if (typeof value === "string") for (const match of value.matchAll(PATTERN)) found.add(match[1]!);
    else if (Array.isArray(value)) value.forEach(visit);
    else if (isRecord(value)) Object.values(value).forEach(visit);
  };
  for (const node of Object.values(workflow)) visit(node.inputs);
  return found;
}

/** The workflow when it is one this kind can run, else a WorkflowError saying why. */
export function checkWorkflow(kind: WorkflowKind, value: unknown): ComfyWorkflow {
  if (isRecord(value) && Array.isArray(value.nodes) && "links" in value) {
    throw new WorkflowError(
      "this is the editor's format; export the workflow with “Export (API)” (Save (API Format)) instead",
    );
  }
  if (!isRecord(value) || Object.keys(value).length === 0) {
    throw new WorkflowError("not a workflow in API format (an object of nodes)");
  }
  for (const [id, node] of Object.entries(value)) {
    if (!isRecord(node) || typeof node.class_type !== "string" || !isRecord(node.inputs)) {
      throw new WorkflowError(`node ${id} has no class_type and inputs`);
    }
  }
  const workflow = value as ComfyWorkflow;
  const used = placeholdersOf(workflow);
  const unknown = [...used].filter((name) => !(name in PLACEHOLDERS));
  if (unknown.length > 0) {
    throw new WorkflowError(
      `unknown placeholder {{${unknown[0]}}}; the placeholders are ${Object.keys(PLACEHOLDERS)
        .map((name) => `{{${name}}}`)
        .join(", ")}`,
    );
  }
  const missing = REQUIRED[kind].filter((name) => !used.has(name));
  if (missing.length > 0) {
    throw new WorkflowError(`the ${kind} workflow needs the placeholder {{${missing[0]}}}`);
  }
  return workflow;
}

/** The workflows shipped with Storyverse. */
export const shippedWorkflows: ComfyWorkflows = {
  txt2img: checkWorkflow("txt2img", txt2img),
  img2img: checkWorkflow("img2img", img2img),
  inpaint: checkWorkflow("inpaint", inpaint),
  upscale: checkWorkflow("upscale", upscale),
  img2video: checkWorkflow("img2video", img2video),
};

/**
 * The operator's workflows in `dir`: `<kind>.json` for each kind they replace. Throws a WorkflowError naming
 * the file for one that cannot be read or used, and for a folder that cannot be read.
 */
export function readWorkflowDir(dir: string): Partial<ComfyWorkflows> {
  let files: string[];
  try {
    files = readdirSync(dir);
  } catch {
    throw new WorkflowError(`cannot read the folder ${dir}`);
  }
  const found: Partial<ComfyWorkflows> = {};
  for (const kind of WORKFLOW_KINDS) {
    const file = `${kind}.json`;
    if (!files.includes(file)) continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(path.join(dir, file), "utf8"));
    } catch (error) {
      throw new WorkflowError(`${file} is not JSON (${(error as Error).message})`);
    }
    try {
      found[kind] = checkWorkflow(kind, parsed);
    } catch (error) {
      throw new WorkflowError(`${file}: ${(error as Error).message}`);
    }
  }
  if (Object.keys(found).length === 0) {
    throw new WorkflowError(
      `no workflow in ${dir}: name them ${WORKFLOW_KINDS.map((kind) => `${kind}.json`).join(", ")}`,
    );
  }
  return found;
}

/** A copy of the workflow with every placeholder filled (one with no value becomes empty text). */
export function fillWorkflow(workflow: ComfyWorkflow, values: PlaceholderValues): ComfyWorkflow {
  const filled = (name: string): string | number => values[name as Placeholder] ?? "";
  const fill = (value: unknown): unknown => {
    if (typeof value === "string") {
      const whole = /^\{\{\s*([a-z_]+)\s*\}\}$/.exec(value);
      if (whole) return filled(whole[1]!);
      return value.replace(PATTERN, (_match, name: string) => String(filled(name)));
    }
    if (Array.isArray(value)) return value.map(fill);
    if (isRecord(value))
      return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, fill(inner)]));
    return value;
  };
  return Object.fromEntries(
    Object.entries(workflow).map(([id, node]) => [
      id,
      { ...node, inputs: fill(node.inputs) as ComfyNode["inputs"] },
    ]),
  );
}
