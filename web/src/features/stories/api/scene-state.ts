// PUT /api/stories/{id}/scene-state: the player's correction of where the scene is, its time of day and
// weather (what every picture keeps). The state itself is read with the camera, in the narrator's context.
import {
  type SceneState,
  type SceneStateUpdate,
  sceneStateResponseSchema,
} from "@storyverse/contract/camera";
import { apiRequest } from "../../../lib/api-client";

export async function saveSceneState(storyId: string, changes: SceneStateUpdate): Promise<SceneState> {
  const response = await apiRequest(`/api/stories/${encodeURIComponent(storyId)}/scene-state`, {
    method: "PUT",
    body: changes,
    schema: sceneStateResponseSchema,
    timeoutMs: 30_000,
  });
  return response.scene_state;
}
