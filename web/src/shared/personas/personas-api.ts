// GET/POST/PUT/DELETE /api/personas (decision 0152): who the player plays. Shared, because Story Settings picks
// one ("You play as") and the account page manages them.
import {
  type CreatePersonaRequest,
  deletePersonaResponseSchema,
  type Persona,
  personaResponseSchema,
  personasResponseSchema,
  type UpdatePersonaRequest,
} from "@storyverse/contract/personas";
import { queryOptions } from "@tanstack/react-query";
import { apiRequest } from "../../lib/api-client";

export const PERSONAS_KEY = ["personas"] as const;

const personaPath = (id: string) => `/api/personas/${encodeURIComponent(id)}`;

export const personasQueryOptions = () =>
  queryOptions({
    queryKey: PERSONAS_KEY,
    queryFn: ({ signal }) =>
      apiRequest("/api/personas", { schema: personasResponseSchema, signal, timeoutMs: 30_000 }),
  });

export async function createPersona(body: CreatePersonaRequest): Promise<Persona> {
  const res = await apiRequest("/api/personas", {
    method: "POST",
    body,
    schema: personaResponseSchema,
    timeoutMs: 30_000,
  });
  return res.persona;
}

export async function updatePersona(id: string, body: UpdatePersonaRequest): Promise<Persona> {
  const res = await apiRequest(personaPath(id), {
    method: "PUT",
    body,
    schema: personaResponseSchema,
    timeoutMs: 30_000,
  });
  return res.persona;
}

export async function deletePersona(id: string): Promise<void> {
  await apiRequest(personaPath(id), {
    method: "DELETE",
    schema: deletePersonaResponseSchema,
    timeoutMs: 30_000,
  });
}
