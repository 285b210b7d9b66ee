// The picture editor (decision 0148) as a player uses it: only the edits the configured image service offers,
// each priced on its button; a brushed region sent as a mask of the picture's size; a busy state while the
// painter works; the new picture shown once saved; the server's words when it refuses, the out-of-credits
// prompt on a 402, and a refund said on a vendor failure.
import { CREDIT_COSTS } from "@storyverse/contract/credits";
import type { GalleryItem } from "@storyverse/contract/media";
import type { MediaEditKind } from "@storyverse/contract/media-edit";
import { fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { costLabel } from "../../lib/credits";
import { makeGalleryItem } from "../../test/media-fixtures";
import { type FetchCall, json, mockFetch } from "../../test/mock-fetch";
import { Providers, SIGNED_IN } from "../../test/render-app";
import { QuotaPromptProvider } from "../credits/quota-prompt-provider";
import { type EditTarget, PictureEditDialog } from "./picture-edit-dialog";

const MASK_BRUSH_LABEL = "Mask brush";
const EDIT_SAVED = "Saved to your Gallery";
const MASK_NEEDED = "Brush over the part to repaint first.";
const REFUNDED = "Nothing was charged: your credits were refunded.";

const PICTURE = "00000000-0000-4000-8000-000000000001";
const EDITED = "00000000-0000-4000-8000-000000000002";

const item = makeGalleryItem;

const details = (id: string) => ({
  item: item(id),
  prompt: "A harbour at dusk",
  width: 64,
  height: 48,
  bytes: 1234,
  mime_type: "image/png",
  model: "offline",
  seed: 7,
  references: [],
  parent: null,
  children: [],
});

const quotaInfo = { remaining: 13.5, unlimited: false, cost: 1.5, charged: 1.5 };

function server(kinds: MediaEditKind[], edit: (call: FetchCall) => Response | Promise<Response>) {
  return mockFetch((call) => {
    if (call.path === "/api/config")
      return json({
        capabilities: ["accounts", "image"],
        providers: { text: "offline", image: "offline", video: "offline", transcription: null },
        offline_providers: true,
        image_edit_kinds: kinds,
      });
    if (call.path === "/api/credit-balance") return json({ remaining: 15, unlimited: false });
    if (call.path.startsWith("/api/media/by-url")) return json({ item: item(PICTURE) });
    const detailsOf = call.path.match(/^\/api\/media\/([^/]+)\/details$/);
    if (detailsOf) return json(details(detailsOf[1]!));
    if (call.path === `/api/media/${PICTURE}/edit` && call.method === "POST") return edit(call);
    return json({ detail: "not here" }, 404);
  });
}

const saved = () =>
  json({
    success: true,
    item: item(EDITED, { parent_id: PICTURE, description: "a golden moon" }),
    quota_info: quotaInfo,
  });

function renderEditor(target: EditTarget = { id: PICTURE }, onClose = () => {}) {
  return render(
    <Providers auth={SIGNED_IN}>
      <QuotaPromptProvider>
        <PictureEditDialog target={target} onClose={onClose} />
      </QuotaPromptProvider>
    </Providers>,
  );
}

/** The PNG in a data URL: its width and height, from its IHDR. */
function pngSize(dataUrl: string) {
  const bytes = Uint8Array.from(atob(dataUrl.slice(dataUrl.indexOf(",") + 1)), (c) => c.charCodeAt(0));
  const view = new DataView(bytes.buffer);
  return { width: view.getUint32(16), height: view.getUint32(20), bytes };
}

/** The alpha of pixel (x, y) of the 8-bit RGBA, unfiltered PNG the editor sends. */
async function alphaAt(png: Uint8Array, width: number, x: number, y: number) {
  const view = new DataView(png.buffer);
  const length = view.getUint32(33);
  const decompression = new DecompressionStream("deflate");
  const writer = decompression.writable.getWriter();
  void writer.write(png.subarray(41, 41 + length) as Uint8Array<ArrayBuffer>);
  void writer.close();
  const raw = new Uint8Array(await new Response(decompression.readable).arrayBuffer());
  return raw[y * (width * 4 + 1) + 1 + x * 4 + 3];
}

beforeEach(() => {
  // jsdom draws nothing: the canvas only shows the strokes; the mask is made from them in code.
  vi.spyOn(HTMLCanvasElement.prototype, "getContext").mockReturnValue(null);
});

describe("the picture editor", () => {
  it("offers only the edits the image service can make, each priced on its button", async () => {
    server(["inpaint", "vary"], saved);
    renderEditor();
    const dialog = await screen.findByRole("dialog", { name: "Edit picture" });
    expect(
      (await within(dialog).findByRole<HTMLInputElement>("radio", { name: "Repaint a region" })).checked,
    ).toBe(true);
    expect(within(dialog).getByRole("radio", { name: "Vary" })).toBeTruthy();
    expect(within(dialog).queryByRole("radio", { name: "Extend" })).toBeNull();
    expect(within(dialog).queryByRole("radio", { name: "Upscale x2" })).toBeNull();
    expect(within(dialog).getByRole("button", { name: /^Repaint/ }).textContent).toContain(
      costLabel(CREDIT_COSTS.image_inpaint),
    );
    fireEvent.click(within(dialog).getByRole("radio", { name: "Vary" }));
    for (const name of ["Subtle", "Strong"]) {
      expect(within(dialog).getByRole("button", { name: new RegExp(`^${name}`) }).textContent).toContain(
        costLabel(CREDIT_COSTS.image_vary),
      );
    }
  });

  it("asks for a brushed region first, then sends the brush as a mask of the picture's size", async () => {
    const calls = server(["inpaint", "outpaint", "vary", "upscale"], saved);
    renderEditor();
    const repaint = await screen.findByRole("button", { name: /^Repaint/ });
    fireEvent.click(repaint);
    expect(await screen.findByText(MASK_NEEDED)).toBeTruthy();
    expect(calls.some((call) => call.method === "POST")).toBe(false);

    // The picture (64x48) is shown at 128x96: a drag from (20,20) to (60,20) on screen is (10,10)-(30,10) in it.
    const brush = screen.getByRole("application", { name: MASK_BRUSH_LABEL });
    const canvas = brush.querySelector("canvas")!;
    vi.spyOn(canvas, "getBoundingClientRect").mockReturnValue(new DOMRect(0, 0, 128, 96));
    fireEvent.change(screen.getByLabelText(/Brush size/), { target: { value: "12" } });
    const pointer = { pointerId: 1, isPrimary: true, pointerType: "touch", button: 0 };
    fireEvent.pointerDown(canvas, { ...pointer, clientX: 20, clientY: 20 });
    fireEvent.pointerMove(canvas, { ...pointer, clientX: 60, clientY: 20 });
    fireEvent.pointerUp(canvas, { ...pointer, clientX: 60, clientY: 20 });
    fireEvent.change(screen.getByLabelText("What to paint there"), { target: { value: "a golden moon" } });
    fireEvent.click(repaint);

    expect(await screen.findByText(EDIT_SAVED)).toBeTruthy();
    const post = calls.find((call) => call.method === "POST")!;
    const body = post.body as { kind: string; prompt: string; mask: string };
    expect(body).toMatchObject({ kind: "inpaint", prompt: "a golden moon" });
    const png = pngSize(body.mask);
    expect([png.width, png.height]).toEqual([64, 48]);
    // Brush radius 12/2 on screen = 3 picture pixels: the stroke's middle is painted, far pixels are not.
    expect(await alphaAt(png.bytes, 64, 20, 10)).toBe(255);
    expect(await alphaAt(png.bytes, 64, 20, 14)).toBe(0);
    expect(await alphaAt(png.bytes, 64, 50, 40)).toBe(0);
    expect(screen.getByRole("img", { name: "a golden moon" }).getAttribute("src")).toBe(item(EDITED).url);
    expect(screen.getByRole("button", { name: "Edit the new picture" })).toBeTruthy();
  });

  it("paints with the keyboard: Space paints where the brush is", async () => {
    const calls = server(["inpaint"], saved);
    renderEditor();
    const brush = await screen.findByRole("application", { name: MASK_BRUSH_LABEL });
    brush.focus();
    fireEvent.keyDown(brush, { key: "ArrowLeft" });
    fireEvent.keyDown(brush, { key: " " });
    fireEvent.click(screen.getByRole("button", { name: /^Repaint/ }));
    expect(await screen.findByText(EDIT_SAVED)).toBeTruthy();
    const body = calls.find((call) => call.method === "POST")!.body as { mask: string };
    const png = pngSize(body.mask);
    // Moved one brush radius (20 px at this scale) left of the centre (32, 24): painted around (12, 24).
    expect(await alphaAt(png.bytes, 64, 12, 24)).toBe(255);
    expect(await alphaAt(png.bytes, 64, 60, 24)).toBe(0);
  });

  it("shows a busy state while the painter works, then the upscaled picture", async () => {
    let answer: (response: Response) => void = () => {};
    const calls = server(["upscale"], () => new Promise<Response>((resolve) => (answer = resolve)));
    renderEditor({ url: "/media/story-picture.png?sig=x" });
    expect(await screen.findByText("Doubles both sides: 64 × 48 px becomes 128 × 96 px.")).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: /^Upscale x2/ }));
    expect(await screen.findByText("Upscaling...", { selector: "span" })).toBeTruthy();
    expect(screen.getByRole<HTMLButtonElement>("button", { name: /Upscaling/ }).disabled).toBe(true);
    expect(calls.find((call) => call.method === "POST")).toMatchObject({
      path: `/api/media/${PICTURE}/edit`,
      body: { kind: "upscale" },
    });
    answer(saved());
    expect(await screen.findByText(EDIT_SAVED)).toBeTruthy();
  });

  it("opens the out-of-credits prompt on a 402, and says the server's words and the refund on a 502", async () => {
    let status = 402;
    server(["vary"], () =>
      status === 402
        ? json(
            {
              detail: "Insufficient credits",
              code: "insufficient_credits",
              quota_exceeded: true,
              quota_info: { remaining: 1, unlimited: false, cost: 1.5, charged: 0 },
            },
            402,
          )
        : json({ detail: "The image service could not edit this picture. Please try again." }, 502),
    );
    renderEditor();
    fireEvent.click(await screen.findByRole("button", { name: /^Subtle/ }));
    expect(await screen.findByRole("heading", { name: "Not Enough Credits" })).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Later" }));
    await waitFor(() => expect(screen.queryByRole("heading", { name: "Not Enough Credits" })).toBeNull());

    status = 502;
    fireEvent.click(screen.getByRole("button", { name: /^Strong/ }));
    expect(
      await screen.findByText(`The image service could not edit this picture. Please try again. ${REFUNDED}`),
    ).toBeTruthy();
  });

  it("offers a story's picture's edit to show in the turn's place, and says so when the story refuses", async () => {
    server(["vary"], saved);
    const showInTurn = vi.fn<(edited: GalleryItem) => Promise<boolean>>().mockResolvedValueOnce(false);
    const onClose = vi.fn();
    renderEditor({ url: item(PICTURE).url, showInTurn }, onClose);
    fireEvent.click(await screen.findByRole("button", { name: /^Subtle/ }));
    expect(await screen.findByText(EDIT_SAVED)).toBeTruthy();
    const show = screen.getByRole("button", { name: "Show in the story" });
    fireEvent.click(show);
    expect(
      await screen.findByText(
        "The story could not show this picture. Its turn may have changed: close the editor and try again.",
      ),
    ).toBeTruthy();
    expect(onClose).not.toHaveBeenCalled();

    showInTurn.mockResolvedValueOnce(true);
    fireEvent.click(show);
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(showInTurn).toHaveBeenLastCalledWith(expect.objectContaining({ id: EDITED, parent_id: PICTURE }));
  });

  it("keeps a Gallery picture's outcome to Done: only a story's picture has a turn to show it in", async () => {
    server(["vary"], saved);
    renderEditor();
    fireEvent.click(await screen.findByRole("button", { name: /^Subtle/ }));
    expect(await screen.findByText(EDIT_SAVED)).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Show in the story" })).toBeNull();
    expect(screen.getByRole("button", { name: "Done" })).toBeTruthy();
  });
});
