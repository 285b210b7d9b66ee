// The story a call under /api/stories/{id} acts on, put on the request by the story scope
// (stories/branch-scope.ts) once it has checked that the story is the caller's and resolved the branch. Routes
// read it here, not from the URL: the URL names the story, and the call may act on another of its branches.
import type { FastifyRequest } from "fastify";

export interface ScopedStory {
  /** The branch the call acts on: the branch being viewed of the story the URL names, or `?branch=`'s. */
  id: string;
}

declare module "fastify" {
  interface FastifyRequest {
    story: ScopedStory | null;
  }
}

/** The scoped story of a call under /api/stories/{id}; a route outside the scope asking for it is a bug. */
export function scopedStory(request: FastifyRequest): ScopedStory {
  if (!request.story) throw new Error(`${request.routeOptions.url ?? request.url} has no story scope`);
  return request.story;
}
