// The handle between the story text and the scene: the keys move it within its limits, the value it
// announces is the story text's share, and the width the player leaves it at is remembered.
import { fireEvent, render, screen } from "@testing-library/react";
import { beforeEach, describe, expect, it } from "vitest";
import { readStorage, SCENE_WIDTH_DEFAULT, SCENE_WIDTH_MAX, SCENE_WIDTH_MIN } from "../../../lib/storage";
import { useSceneWidth } from "../use-chat-preferences";
import { SceneResizer } from "./scene-resizer";

function Harness() {
  const { width, preview, choose } = useSceneWidth();
  return <SceneResizer sceneWidth={width} onPreview={preview} onChoose={choose} />;
}

const handle = () => screen.getByRole("separator", { name: "Resize the story and the scene" });

describe("SceneResizer", () => {
  beforeEach(() => localStorage.clear());

  it("starts with the story text at 60% and the arrow keys move it, remembered", () => {
    render(<Harness />);
    expect(handle().getAttribute("aria-valuenow")).toBe(String(100 - SCENE_WIDTH_DEFAULT));
    fireEvent.keyDown(handle(), { key: "ArrowRight" });
    expect(handle().getAttribute("aria-valuenow")).toBe(String(100 - SCENE_WIDTH_DEFAULT + 2));
    expect(handle().getAttribute("aria-valuetext")).toBe(
      `Story text ${100 - SCENE_WIDTH_DEFAULT + 2}% of the width`,
    );
    expect(readStorage("sceneWidth")).toBe(SCENE_WIDTH_DEFAULT - 2);
    fireEvent.keyDown(handle(), { key: "ArrowLeft" });
    fireEvent.keyDown(handle(), { key: "ArrowLeft" });
    expect(readStorage("sceneWidth")).toBe(SCENE_WIDTH_DEFAULT + 2);
  });

  it("never gives the scene more than half the width, nor less than a quarter", () => {
    render(<Harness />);
    fireEvent.keyDown(handle(), { key: "Home" });
    fireEvent.keyDown(handle(), { key: "ArrowLeft" });
    expect(handle().getAttribute("aria-valuenow")).toBe(String(100 - SCENE_WIDTH_MAX));
    fireEvent.keyDown(handle(), { key: "End" });
    fireEvent.keyDown(handle(), { key: "ArrowRight" });
    expect(handle().getAttribute("aria-valuenow")).toBe(String(100 - SCENE_WIDTH_MIN));
    expect(readStorage("sceneWidth")).toBe(SCENE_WIDTH_MIN);
  });

  it("reads back a remembered width, and ignores one outside the limits", () => {
    localStorage.setItem("sceneWidth", "30");
    const { unmount } = render(<Harness />);
    expect(handle().getAttribute("aria-valuenow")).toBe("70");
    unmount();
    localStorage.setItem("sceneWidth", "90");
    render(<Harness />);
    expect(handle().getAttribute("aria-valuenow")).toBe(String(100 - SCENE_WIDTH_DEFAULT));
  });
});
