import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ApiError } from "../../lib/api-errors";
import { json, mockFetch } from "../../test/mock-fetch";
import { Providers, SIGNED_IN } from "../../test/render-app";
import { ChatInput } from "./components/chat-input";
import { pickRecordingType, transcriptionErrorMessage, transcriptionProblem } from "./use-voice-recorder";

class FakeRecorder {
  static supported = ["audio/webm;codecs=opus", "audio/webm", "audio/mp4"];
  static last: FakeRecorder | null = null;
  static isTypeSupported = (type: string) => FakeRecorder.supported.includes(type);
  state: "inactive" | "recording" = "inactive";
  ondataavailable: ((event: { data: Blob }) => void) | null = null;
  onstop: (() => void) | null = null;
  constructor(
    readonly stream: unknown,
    readonly options: { mimeType: string },
  ) {
    FakeRecorder.last = this;
  }
  start() {
    this.state = "recording";
  }
  stop() {
    this.state = "inactive";
    this.ondataavailable?.({ data: new Blob(["voice"], { type: this.options.mimeType }) });
    this.onstop?.();
  }
}

const stopTrack = vi.fn();
const getUserMedia = vi.fn(async () => ({ getTracks: () => [{ stop: stopTrack }] }));

beforeEach(() => {
  FakeRecorder.supported = ["audio/webm;codecs=opus", "audio/webm", "audio/mp4"];
  vi.stubGlobal("MediaRecorder", FakeRecorder);
  Object.defineProperty(navigator, "mediaDevices", { configurable: true, value: { getUserMedia } });
  getUserMedia.mockClear();
  stopTrack.mockClear();
});

afterEach(() => {
  Object.defineProperty(navigator, "mediaDevices", { configurable: true, value: undefined });
});

function serveTranscription(answer: () => Response) {
  return mockFetch(({ path }) => {
    if (path === "/api/transcribe-audio") return answer();
    return json({ remaining: 15, unlimited: false });
  });
}

function renderInput(auth = SIGNED_IN) {
  render(
    <Providers auth={auth}>
      <ChatInput mode="image" onModeChange={() => {}} onSend={async () => true} busy={false} voiceEnabled />
    </Providers>,
  );
}

/** The options of the request that carried the recording. */
function transcriptionRequest(): RequestInit {
  const call = vi.mocked(fetch).mock.calls.find(([url]) => String(url) === "/api/transcribe-audio");
  if (!call?.[1]) throw new Error("no transcription request");
  return call[1];
}

const box = () => screen.getByLabelText("Message", { exact: true }) as HTMLTextAreaElement;

async function record() {
  fireEvent.click(screen.getByRole("button", { name: "Record a voice message" }));
  await screen.findByRole("button", { name: "Stop recording" });
}

describe("voice input", () => {
  it("records mono 16 kHz WebM, stops on Enter, and appends the transcription to the message", async () => {
    serveTranscription(() => json({ success: true, text: "  the gate opens ", error: null }));
    renderInput();
    fireEvent.change(box(), { target: { value: "Then" } });
    await record();
    expect(getUserMedia).toHaveBeenCalledWith({
      audio: expect.objectContaining({ channelCount: 1, sampleRate: 16_000 }),
    });
    expect(FakeRecorder.last?.options.mimeType).toBe("audio/webm;codecs=opus");
    fireEvent.keyDown(box(), { key: "Enter" });
    await waitFor(() => expect(box().value).toBe("Then the gate opens"));
    expect(stopTrack).toHaveBeenCalled();

    const init = transcriptionRequest();
    const audio = (init.body as FormData).get("audio") as File;
    expect(audio.name).toBe("voice.webm");
    expect(audio.type).toBe("audio/webm");
    expect((init.headers as Record<string, string>)["Content-Type"]).toBeUndefined();
  });

  it("stops by the button too, and records MP4 where WebM is not available", async () => {
    FakeRecorder.supported = ["audio/mp4"];
    serveTranscription(() => json({ success: true, text: "hello", error: null }));
    renderInput();
    await record();
    fireEvent.click(screen.getByRole("button", { name: "Stop recording" }));
    await waitFor(() => expect(box().value).toBe("hello"));
    expect(((transcriptionRequest().body as FormData).get("audio") as File).name).toBe("voice.mp4");
  });

  it("says when the microphone cannot be used", async () => {
    serveTranscription(() => json({ success: true, text: "x", error: null }));
    getUserMedia.mockRejectedValueOnce(new DOMException("denied", "NotAllowedError"));
    renderInput();
    fireEvent.click(screen.getByRole("button", { name: "Record a voice message" }));
    expect(await screen.findByText("Could not access microphone. Please check permissions.")).toBeTruthy();
  });

  it.each([
    [
      () =>
        json({
          success: false,
          text: "",
          error: "No speech detected in the audio. Please try speaking more clearly.",
        }),
      "No speech detected in the audio. Please try speaking more clearly.",
    ],
    [
      () => json({ success: false, text: "", error: "model overloaded" }),
      "Transcription failed: model overloaded",
    ],
    [() => json({ success: false, text: "", error: null }), "Transcription failed: Unknown error"],
    [() => json({ detail: "Session expired" }, 401), "Authentication failed. Please login again."],
    [
      () => json({ detail: "Voice input is not available on this server." }, 503),
      "Transcription error: Voice input is not available on this server.",
    ],
  ])("shows the spec's message for each failure (%#)", async (answer, message) => {
    serveTranscription(answer);
    renderInput();
    await record();
    fireEvent.keyDown(box(), { key: "Enter" });
    expect(await screen.findByText(message)).toBeTruthy();
    expect(box().value).toBe("");
  });

  it("needs a token", async () => {
    serveTranscription(() => json({ success: true, text: "x", error: null }));
    renderInput();
    localStorage.removeItem("token");
    await record();
    fireEvent.keyDown(box(), { key: "Enter" });
    expect(await screen.findByText("No authentication token found. Please login again.")).toBeTruthy();
  });
});

describe("voice input rules", () => {
  it("prefers WebM, then MP4, else nothing", () => {
    expect(pickRecordingType(() => true)?.mimeType).toBe("audio/webm;codecs=opus");
    expect(pickRecordingType((t) => t === "audio/mp4")?.extension).toBe("mp4");
    expect(pickRecordingType(() => false)).toBeNull();
  });

  it("words each outcome as the spec does", () => {
    expect(transcriptionProblem({ success: true, text: "hi", error: null })).toBeNull();
    expect(transcriptionProblem({ success: true, text: "  ", error: null })).toBe(
      "No speech detected in the audio. Please try speaking more clearly.",
    );
    expect(transcriptionErrorMessage(new ApiError(401, "nope"))).toBe(
      "Authentication failed. Please login again.",
    );
    expect(
      transcriptionErrorMessage(
        new ApiError(0, "Network connection error. Please check your internet and try again."),
      ),
    ).toBe("Transcription error: Network connection error. Please check your internet and try again.");
  });
});
