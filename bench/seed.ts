// The data the read benchmarks read, made over HTTP as a user would make it.
async function json<T>(res: Response): Promise<T> {
  if (!res.ok) throw new Error(`${res.url}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** A user with a story of one image turn, and a main-chat image turn: what the reads below read. */
export async function seed(base: string) {
  const registered = await json<{ access_token: string }>(
    await fetch(`${base}/api/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "bench@example.com", username: "bench", password: "bench-password" }),
    }),
  );
  const auth = { authorization: `Bearer ${registered.access_token}` };
  const post = (url: string, body: unknown) =>
    fetch(`${base}${url}`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  const { story } = await json<{ story: { id: string } }>(
    await post("/api/stories", { title: "Bench story" }),
  );
  await json(await post(`/api/stories/${story.id}/chat`, { prompt: "Begin", chat_mode: "chat" }));
  const turn = await json<{ message_id: string }>(
    await post("/api/chat", { prompt: "Begin", chat_mode: "image" }),
  );
  // Measure the steady state: the picture is made (by this process's worker) before the load starts.
  for (let i = 0; i < 120; i += 1) {
    const status = await json<{ status: string }>(
      await fetch(`${base}/api/chat/media-status/${turn.message_id}`, { headers: auth }),
    );
    if (status.status !== "pending") break;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return { auth, storyId: story.id, messageId: turn.message_id };
}
