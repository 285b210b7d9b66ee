// "What the camera sees": the scene state, the characters' looks, the references and the painter's exact
// prompt as the server answers them; correcting the scene state saves it and reads the camera again.
import { fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { json, mockFetch } from "../../../test/mock-fetch";
import { Providers, SIGNED_IN } from "../../../test/render-app";
import { CameraPanel } from "./camera-panel";
import { narratorContext } from "./test-context";

const STORY = "11111111-1111-4111-8111-111111111111";
const PROMPT = (time: string) =>
  `[the scene the illustrator writes from the next answer]\n\nKeep from earlier scenes:\nPlace: the Salt Gate.\nTime of day: ${time}.\nMara: a torn red cloak`;

function contextWith(time: string) {
  const context = narratorContext({});
  return {
    ...context,
    camera: {
      scene_prompt: PROMPT(time),
      scene_state: { place: "the Salt Gate", time_of_day: time, weather: "" },
      characters: [{ card_id: "c1", name: "Mara", appearance: "a torn red cloak" }],
      references: [{ source: "portrait" as const, card_id: "c1", name: "Mara", url: "/media/mara.webp" }],
    },
  };
}

describe("What the camera sees", () => {
  it("shows the scene state, the characters' looks, the references and the exact scene prompt", async () => {
    const calls = mockFetch(() => json(contextWith("night")));
    render(
      <Providers auth={SIGNED_IN}>
        <CameraPanel storyId={STORY} onClose={() => {}} />
      </Providers>,
    );
    const prompt = await screen.findByRole("region", { name: "Scene prompt" });
    expect(calls[0]?.path).toBe(`/api/stories/${STORY}/context?chat_mode=image`);
    expect(within(prompt).getByText(/Keep from earlier scenes/).textContent).toBe(PROMPT("night"));
    expect((screen.getByLabelText("Place") as HTMLInputElement).value).toBe("the Salt Gate");
    expect((screen.getByLabelText("Time of day") as HTMLInputElement).value).toBe("night");
    const characters = screen.getByRole("region", { name: "Characters" });
    expect(within(characters).getByRole("listitem", { name: "Mara" }).textContent).toContain(
      "a torn red cloak",
    );
    expect(screen.getByRole("img", { name: "Portrait of Mara" })).toBeTruthy();
  });

  it("saves a corrected scene state and shows the prompt the next picture gets", async () => {
    let time = "night";
    const calls = mockFetch(({ path, method, body }) => {
      if (path.endsWith("/scene-state") && method === "PUT") {
        time = (body as { time_of_day: string }).time_of_day;
        return json({
          success: true,
          scene_state: { place: "the Salt Gate", time_of_day: time, weather: "" },
        });
      }
      return json(contextWith(time));
    });
    render(
      <Providers auth={SIGNED_IN}>
        <CameraPanel storyId={STORY} onClose={() => {}} />
      </Providers>,
    );
    const save = await screen.findByRole("button", { name: "Save scene" });
    expect((save as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(screen.getByLabelText("Time of day"), { target: { value: "dawn" } });
    fireEvent.click(save);
    await waitFor(() =>
      expect(screen.getByRole("region", { name: "Scene prompt" }).textContent).toContain(
        "Time of day: dawn.",
      ),
    );
    expect(calls.find((call) => call.method === "PUT")?.body).toEqual({
      place: "the Salt Gate",
      time_of_day: "dawn",
      weather: "",
    });
  });

  it("says why the scene state was not saved", async () => {
    mockFetch(({ method }) =>
      method === "PUT"
        ? json({ detail: "place must be at most 100 characters", code: "bad_request" }, 400)
        : json(contextWith("night")),
    );
    render(
      <Providers auth={SIGNED_IN}>
        <CameraPanel storyId={STORY} onClose={() => {}} />
      </Providers>,
    );
    fireEvent.change(await screen.findByLabelText("Place"), { target: { value: "somewhere else" } });
    fireEvent.click(screen.getByRole("button", { name: "Save scene" }));
    expect((await screen.findByRole("alert")).textContent).toContain("place must be at most 100 characters");
  });
});
