// Camera moves as words (decision 0160), for video models that take direction from the prompt only: the move
// is appended to the prompt as one plain sentence, the way their prompt guides write camera directions.
import type { CameraMove } from "./types";

const SENTENCES: Record<CameraMove, string> = {
  still: "Camera: static shot, the camera does not move.",
  push_in: "Camera: slow push in toward the subject.",
  pull_out: "Camera: slow pull out, revealing more of the scene.",
  pan_left: "Camera: slow pan to the left.",
  pan_right: "Camera: slow pan to the right.",
  orbit: "Camera: slow orbit around the subject.",
};

/** The prompt with the camera's move said in words; unchanged when no move was asked for. */
export function withCameraWords(prompt: string, camera: CameraMove | undefined): string {
  return camera ? `${prompt.trim()}\n\n${SENTENCES[camera]}` : prompt;
}
