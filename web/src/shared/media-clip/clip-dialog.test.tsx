// Clips that go on (decision 0160) as a player uses the dialog: the picture's prompt to start from, a camera move
// and a last frame sent with the request, the price on the button, the job followed until the new clip shows (or
// the refund is said), the server's words on a 400 and the out-of-credits prompt on a 402, no extension past
// 20 seconds, and no more polls once the dialog is closed.
import { CREDIT_COSTS } from "@storyverse/contract/credits";
import type { GalleryItem } from "@storyverse/contract/media";
import type { ClipJob } from "@storyverse/contract/media-clip";
import { fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { costLabel } from "../../lib/credits";
import { makeGalleryItem } from "../../test/media-fixtures";
import { type FetchCall, json, mockFetch } from "../../test/mock-fetch";
import { Providers, SIGNED_IN } from "../../test/render-app";
import { QuotaPromptProvider } from "../credits/quota-prompt-provider";
import { ClipDialog, type ClipTarget } from "./clip-dialog";

const PICTURE = "00000000-0000-4000-8000-000000000001";
const LAST = "00000000-0000-4000-8000-000000000002";
const CLIP = "00000000-0000-4000-8000-000000000003";
const LONGER = "00000000-0000-4000-8000-000000000004";
const JOB = "job-1";
const REFUNDED = "Nothing was charged: your credits were refunded.";

const item = makeGalleryItem;

const video = (id: string, seconds: number, overrides: Partial<GalleryItem> = {}) =>
  item(id, {
    type: "video",
    url: `/media/${id}.mp4?sig=x`,
    media_url: `/media/${id}.mp4?sig=x`,
    file_extension: "mp4",
    description: "Boats drift home",
    duration_seconds: seconds,
    ...overrides,
  });

const ITEMS: Record<string, GalleryItem> = {
  [PICTURE]: item(PICTURE),
  [LAST]: item(LAST, { description: "The harbour at night" }),
  [CLIP]: video(CLIP, 5),
  [LONGER]: video(LONGER, 5, { parent_id: PICTURE }),
};

function details(id: string) {
  const found = ITEMS[id]!;
  return {
    item: found,
    prompt: found.type === "video" ? "Boats drift home" : "A harbour at dusk",
    width: 64,
    height: 48,
    bytes: 1234,
    mime_type: found.type === "video" ? "video/mp4" : "image/png",
    model: "offline",
    seed: 7,
    references: [],
    parent: null,
    children: [],
  };
}

const quotaInfo = { remaining: 12, unlimited: false, cost: 3, charged: 3 };

function job(overrides: Partial<ClipJob> = {}): ClipJob {
  return {
    job_id: JOB,
    kind: "animate",
    status: "pending",
    parent_id: PICTURE,
    item: null,
    detail: null,
    duration_seconds: 5,
    ...overrides,
  };
}

/**
 * The server: `start` answers the POST; the job stays pending for `pendingPolls` polls, then answers `end`.
 */
function server({
  start = () => json({ ...job(), quota_info: quotaInfo }, 202),
  pendingPolls = 1,
  end = job({ status: "completed", item: video(LONGER, 5, { parent_id: PICTURE, description: "" }) }),
}: {
  start?: (call: FetchCall) => Response;
  pendingPolls?: number;
  end?: ClipJob;
} = {}) {
  let polls = 0;
  return mockFetch((call) => {
    if (call.path === "/api/config")
      return json({
        capabilities: ["accounts", "image", "video"],
        providers: { text: "offline", image: "offline", video: "offline", transcription: null },
        offline_providers: true,
      });
    if (call.path === "/api/credit-balance") return json({ remaining: 15, unlimited: false });
    if (call.path === "/api/user/images")
      return json({ success: true, images: [ITEMS[PICTURE], ITEMS[LAST]] });
    if (call.path.startsWith("/api/media/by-url")) return json({ item: ITEMS[CLIP] });
    const detailsOf = call.path.match(/^\/api\/media\/([^/]+)\/details$/);
    if (detailsOf) return json(details(detailsOf[1]!));
    if (/^\/api\/media\/[^/]+\/(animate|extend)$/.test(call.path) && call.method === "POST")
      return start(call);
    if (call.path === `/api/media/clips/${JOB}`) {
      polls += 1;
      return json(polls <= pendingPolls ? job() : end);
    }
    return json({ detail: "not here" }, 404);
  });
}

function dialog(target: ClipTarget | null, onFinished?: (item: GalleryItem) => void) {
  return (
    <Providers auth={SIGNED_IN}>
      <QuotaPromptProvider>
        <ClipDialog target={target} onClose={() => {}} onFinished={onFinished} pollMs={20} />
      </QuotaPromptProvider>
    </Providers>
  );
}

const posts = (calls: FetchCall[]) => calls.filter((call) => call.method === "POST");
const polls = (calls: FetchCall[]) => calls.filter((call) => call.path === `/api/media/clips/${JOB}`);

describe("the clip dialog", () => {
  it("makes a clip with the chosen camera move and last frame, follows the job and shows the new clip", async () => {
    const calls = server({ pendingPolls: 2 });
    render(dialog({ kind: "animate", id: PICTURE }));
    const box = await screen.findByRole("dialog", { name: "Make a clip" });
    const prompt = await within(box).findByLabelText<HTMLTextAreaElement>("What happens in the clip");
    expect(prompt.value).toBe("A harbour at dusk");
    const make = within(box).getByRole("button", { name: /^Make the clip/ });
    expect(make.textContent).toContain(costLabel(CREDIT_COSTS.video));
    expect(within(box).getByRole<HTMLInputElement>("radio", { name: "Still" }).checked).toBe(true);

    fireEvent.change(prompt, { target: { value: "The lanterns flicker on" } });
    fireEvent.click(within(box).getByRole("radio", { name: "Orbit" }));
    fireEvent.click(within(box).getByRole("button", { name: "Choose a picture" }));
    // The picture being animated is not offered as its own last frame.
    const list = await within(box).findByRole("list", { name: "Your pictures" });
    expect(within(list).queryByRole("radio", { name: "A harbour at dusk" })).toBeNull();
    fireEvent.click(within(list).getByRole("radio", { name: "The harbour at night" }));
    expect(within(box).getByRole("img", { name: "Ends on: The harbour at night" })).toBeTruthy();
    fireEvent.click(make);

    expect(await within(box).findByRole("progressbar", { name: "The clip is being made" })).toBeTruthy();
    expect(await within(box).findByText("Your 5-second clip is in your Gallery")).toBeTruthy();
    expect(posts(calls)).toEqual([
      expect.objectContaining({
        path: `/api/media/${PICTURE}/animate`,
        body: { prompt: "The lanterns flicker on", camera: "orbit", last_frame_id: LAST },
      }),
    ]);
    expect(polls(calls).length).toBe(3);
    const clip = within(box).getByTestId("clip-result");
    expect(clip.getAttribute("src")).toBe(video(LONGER, 5).url);
    expect(within(box).queryByRole("progressbar")).toBeNull();

    // The new clip can be extended in turn, from the same dialog.
    fireEvent.click(within(box).getByRole("button", { name: "Extend the new clip" }));
    const extend = await screen.findByRole("dialog", { name: "Extend this clip" });
    expect(await within(extend).findByText("Now 5 s long; extended, 10 s.")).toBeTruthy();
    expect(within(extend).getByRole("button", { name: /^Extend by 5 s/ })).toBeTruthy();
  });

  it("extends a story's clip by 5 seconds and says its new length; the story is told", async () => {
    const longer = video(LONGER, 10, { parent_id: CLIP });
    const calls = server({
      start: () =>
        json(
          { ...job({ kind: "extend", parent_id: CLIP, duration_seconds: 10 }), quota_info: quotaInfo },
          202,
        ),
      end: job({ kind: "extend", parent_id: CLIP, status: "completed", item: longer, duration_seconds: 10 }),
    });
    const finished: GalleryItem[] = [];
    render(dialog({ kind: "extend", url: "/media/story-clip.mp4?sig=x" }, (made) => finished.push(made)));
    const box = await screen.findByRole("dialog", { name: "Extend this clip" });
    expect(await within(box).findByText("Now 5 s long; extended, 10 s.")).toBeTruthy();
    expect(within(box).queryByText("Last frame")).toBeNull();
    fireEvent.click(within(box).getByRole("radio", { name: "Push in" }));
    fireEvent.click(within(box).getByRole("button", { name: /^Extend by 5 s/ }));
    expect(await within(box).findByText("The clip is now 10 seconds long")).toBeTruthy();
    expect(posts(calls)).toEqual([
      expect.objectContaining({
        path: `/api/media/${CLIP}/extend`,
        body: { prompt: "Boats drift home", camera: "push_in" },
      }),
    ]);
    expect(finished.map((made) => made.id)).toEqual([LONGER]);
    expect(within(box).getByTestId("clip-result").getAttribute("src")).toBe(longer.url);
  });

  it("says the vendor's failure and the refund when the job fails, and lets the player try again", async () => {
    const calls = server({
      end: job({ status: "failed", detail: "The video service could not make this clip. Please try again." }),
    });
    render(dialog({ kind: "animate", id: PICTURE }));
    fireEvent.click(await screen.findByRole("button", { name: /^Make the clip/ }));
    expect(
      await screen.findByText(`The video service could not make this clip. Please try again. ${REFUNDED}`),
    ).toBeTruthy();
    expect(screen.queryByTestId("clip-result")).toBeNull();
    const again = screen.getByRole<HTMLButtonElement>("button", { name: /^Make the clip/ });
    expect(again.disabled).toBe(false);
    expect(posts(calls).length).toBe(1);
  });

  it("shows the server's words on a 400 and the out-of-credits prompt on a 402", async () => {
    let status = 400;
    const calls = server({
      start: () =>
        status === 400
          ? json({ detail: "last_frame_id must be the id of one of your pictures" }, 400)
          : json(
              {
                detail: "Insufficient credits",
                code: "insufficient_credits",
                quota_exceeded: true,
                quota_info: { remaining: 1, unlimited: false, cost: 3, charged: 0 },
              },
              402,
            ),
    });
    render(dialog({ kind: "animate", id: PICTURE }));
    const make = await screen.findByRole("button", { name: /^Make the clip/ });
    fireEvent.click(make);
    expect(await screen.findByText("last_frame_id must be the id of one of your pictures")).toBeTruthy();
    status = 402;
    fireEvent.click(make);
    expect(await screen.findByRole("heading", { name: "Not Enough Credits" })).toBeTruthy();
    expect(polls(calls).length).toBe(0);
  });

  it("does not offer to extend a clip that is 20 seconds long", async () => {
    ITEMS[CLIP] = video(CLIP, 20);
    try {
      const calls = server();
      render(dialog({ kind: "extend", id: CLIP }));
      expect(await screen.findByText("This clip is 20 s long: clips can be at most 20 s.")).toBeTruthy();
      const extend = screen.getByRole<HTMLButtonElement>("button", { name: /^Extend by 5 s/ });
      expect(extend.disabled).toBe(true);
      fireEvent.click(extend);
      expect(posts(calls).length).toBe(0);
    } finally {
      ITEMS[CLIP] = video(CLIP, 5);
    }
  });

  it("offers to extend the new clip only while it is shorter than 20 seconds", async () => {
    server({
      start: () => json({ ...job({ kind: "extend", duration_seconds: 20 }), quota_info: quotaInfo }, 202),
      end: job({ kind: "extend", status: "completed", item: video(LONGER, 20), duration_seconds: 20 }),
    });
    render(dialog({ kind: "extend", id: CLIP }));
    fireEvent.click(await screen.findByRole("button", { name: /^Extend by 5 s/ }));
    expect(await screen.findByText("The clip is now 20 seconds long")).toBeTruthy();
    expect(screen.getByRole<HTMLButtonElement>("button", { name: "Extend the new clip" }).disabled).toBe(
      true,
    );
  });

  it("stops asking about the job once the dialog is closed", async () => {
    const calls = server({ pendingPolls: Number.POSITIVE_INFINITY });
    const view = render(dialog({ kind: "animate", id: PICTURE }));
    fireEvent.click(await screen.findByRole("button", { name: /^Make the clip/ }));
    await waitFor(() => expect(polls(calls).length).toBeGreaterThan(2));
    view.rerender(dialog(null));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    const atClose = polls(calls).length;
    // Ten poll intervals later nothing more was asked (a poll already on its way may still land).
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(polls(calls).length).toBeLessThanOrEqual(atClose + 1);
    const aborted = polls(calls).at(-1)?.signal;
    expect(aborted?.aborted ?? true).toBe(true);
  });
});
