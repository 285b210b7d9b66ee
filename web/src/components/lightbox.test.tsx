import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import { useState } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { writeStorage } from "../lib/storage";
import { mockFetch } from "../test/mock-fetch";
import { downloadFileName, Lightbox, type LightboxItem } from "./lightbox";

const items: LightboxItem[] = [
  { url: "/media/a.png?sig=1", type: "image", description: "A lighthouse" },
  { url: "/media/b.png?sig=2", type: "image" },
  { url: "/media/c.mp4?sig=3", type: "video", description: "A slow pan" },
];

function Harness({ start = 0, onClose = () => {} }: { start?: number; onClose?: () => void }) {
  const [index, setIndex] = useState<number | null>(start);
  if (index === null) return <p>closed</p>;
  return (
    <Lightbox
      items={items}
      index={index}
      onIndexChange={setIndex}
      onClose={() => {
        setIndex(null);
        onClose();
      }}
    />
  );
}

describe("Lightbox", () => {
  it("offers Edit on pictures only when its caller can edit, and says which one", () => {
    const onEdit = vi.fn();
    const { rerender } = render(
      <Lightbox items={items} index={1} onIndexChange={() => {}} onClose={() => {}} />,
    );
    expect(screen.queryByRole("button", { name: "Edit" })).toBeNull();
    rerender(
      <Lightbox items={items} index={1} onIndexChange={() => {}} onClose={() => {}} onEdit={onEdit} />,
    );
    fireEvent.click(screen.getByRole("button", { name: "Edit" }));
    expect(onEdit).toHaveBeenCalledWith(1);
    rerender(
      <Lightbox items={items} index={2} onIndexChange={() => {}} onClose={() => {}} onEdit={onEdit} />,
    );
    expect(screen.queryByRole("button", { name: "Edit" })).toBeNull();
  });

  it("offers Extend this clip on clips only when its caller can extend, and says which one", () => {
    const onExtend = vi.fn();
    const { rerender } = render(
      <Lightbox items={items} index={2} onIndexChange={() => {}} onClose={() => {}} />,
    );
    expect(screen.queryByRole("button", { name: "Extend this clip" })).toBeNull();
    rerender(
      <Lightbox items={items} index={2} onIndexChange={() => {}} onClose={() => {}} onExtend={onExtend} />,
    );
    fireEvent.click(screen.getByRole("button", { name: "Extend this clip" }));
    expect(onExtend).toHaveBeenCalledWith(2);
    rerender(
      <Lightbox items={items} index={0} onIndexChange={() => {}} onClose={() => {}} onExtend={onExtend} />,
    );
    expect(screen.queryByRole("button", { name: "Extend this clip" })).toBeNull();
  });

  it("shows the item and its position 'n of total'", () => {
    render(<Harness />);
    expect(screen.getByRole("dialog")).toBeTruthy();
    expect(screen.getByText("1 of 3")).toBeTruthy();
    expect(screen.getByRole("img", { name: "A lighthouse" }).getAttribute("src")).toBe("/media/a.png?sig=1");
  });

  it("steps with the arrow keys and stops at either end", () => {
    render(<Harness />);
    const dialog = screen.getByRole("dialog");
    fireEvent.keyDown(dialog, { key: "ArrowLeft" });
    expect(screen.getByText("1 of 3")).toBeTruthy();
    fireEvent.keyDown(dialog, { key: "ArrowRight" });
    expect(screen.getByText("2 of 3")).toBeTruthy();
    fireEvent.keyDown(dialog, { key: "ArrowRight" });
    expect(screen.getByText("3 of 3")).toBeTruthy();
    fireEvent.keyDown(dialog, { key: "ArrowRight" });
    expect(screen.getByText("3 of 3")).toBeTruthy();
    fireEvent.keyDown(dialog, { key: "ArrowLeft" });
    expect(screen.getByText("2 of 3")).toBeTruthy();
  });

  it("steps with the Previous and Next buttons, disabled at the ends", () => {
    render(<Harness />);
    expect((screen.getByRole("button", { name: "Previous" }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByRole("button", { name: "Next" }));
    expect(screen.getByText("2 of 3")).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Next" }));
    expect((screen.getByRole("button", { name: "Next" }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByRole("button", { name: "Previous" }));
    expect(screen.getByText("2 of 3")).toBeTruthy();
  });

  it("closes on Escape and on the Close button", async () => {
    const onClose = vi.fn();
    const { unmount } = render(<Harness onClose={onClose} />);
    fireEvent.keyDown(screen.getByRole("dialog"), { key: "Escape" });
    await waitFor(() => expect(onClose).toHaveBeenCalledTimes(1));
    expect(screen.getByText("closed")).toBeTruthy();
    unmount();

    render(<Harness onClose={onClose} />);
    fireEvent.click(screen.getByRole("button", { name: "Close" }));
    await waitFor(() => expect(onClose).toHaveBeenCalledTimes(2));
  });

  it("plays a video muted, with its controls", () => {
    const { container } = render(<Harness start={2} />);
    const video = document.body.querySelector("video") ?? container.querySelector("video");
    expect(video).not.toBeNull();
    expect(video?.muted).toBe(true);
    expect(video?.hasAttribute("controls")).toBe(true);
    expect(video?.getAttribute("src")).toBe("/media/c.mp4?sig=3");
    expect(screen.getByText("3 of 3")).toBeTruthy();
  });

  it("leaves the arrow keys to a focused video's own controls", () => {
    render(<Harness start={2} />);
    const video = document.body.querySelector("video")!;
    fireEvent.keyDown(video, { key: "ArrowLeft" });
    expect(screen.getByText("3 of 3")).toBeTruthy();
  });
});

describe("Lightbox download", () => {
  let clicked: { href: string; download: string }[];
  beforeEach(() => {
    clicked = [];
    vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push({ href: this.getAttribute("href") ?? "", download: this.download });
    });
    vi.stubGlobal(
      "URL",
      Object.assign(URL, { createObjectURL: vi.fn(() => "blob:file"), revokeObjectURL: vi.fn() }),
    );
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("fetches the file through /api/download with the user's token and saves it", async () => {
    writeStorage("token", "tok");
    const calls = mockFetch(
      () =>
        new Response("png-bytes", {
          status: 200,
          headers: { "Content-Disposition": 'attachment; filename="server-name.png"' },
        }),
    );
    render(<Harness />);
    fireEvent.click(screen.getByRole("button", { name: "Download" }));
    await waitFor(() => expect(clicked).toHaveLength(1));
    expect(calls[0]?.path).toBe(`/api/download?url=${encodeURIComponent("/media/a.png?sig=1")}`);
    expect(calls[0]?.headers.Authorization).toBe("Bearer tok");
    expect(clicked[0]).toEqual({ href: "blob:file", download: "server-name.png" });
  });

  it("falls back to the media URL itself when the download call fails", async () => {
    mockFetch(() => new Response(JSON.stringify({ detail: "Not found" }), { status: 404 }));
    render(<Harness start={1} />);
    fireEvent.click(screen.getByRole("button", { name: "Download" }));
    await waitFor(() => expect(clicked).toHaveLength(1));
    expect(clicked[0]).toEqual({ href: "/media/b.png?sig=2", download: "b.png" });
  });

  it("names a file by the caller's choice first", () => {
    expect(downloadFileName({ url: "/x/y.png", type: "image", downloadName: "mine.png" }, "srv.png")).toBe(
      "mine.png",
    );
    expect(downloadFileName({ url: "/x/y.png", type: "image" }, null)).toBe("y.png");
  });
});
