// The measuring side of the recall budget (bench/recall.ts), in its own process so it can be pinned to a core
// of its own: it logs in and talks to the app over HTTP only, as the web app does, and prints one line
// `RESULT {json}` (a RecallMeasurement) at the end. argv[2] is JSON: { base, username, password, storyId,
// prompts, passes }.
//
// One warm-up pass over the prompts (not counted, but its first call is reported: the first recall after a
// start), then `passes` passes of GET /api/stories/{id}/recall?prompt=, from the request to the parsed answer;
// then GET /api/stories/{id}/context?prompt= once per prompt (its limit is 30 calls a minute per user) after a
// warm-up of 3 calls.

export type RecallMeasurement = {
  /** Per prompt, in the order given: each counted call's time, and the turns its last call recalled. */
  prompts: { ms: number[]; turns: number[] }[];
  firstMs: number;
  contextMs: number[];
};

type Options = {
  base: string;
  username: string;
  password: string;
  storyId: string;
  prompts: string[];
  passes: number;
};

const options = JSON.parse(process.argv[2] ?? "{}") as Options;

async function json<T>(res: Response): Promise<T> {
  if (!res.ok) throw new Error(`${res.url}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

async function main() {
  const { base, storyId, prompts } = options;
  const login = await json<{ access_token: string }>(
    await fetch(`${base}/api/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: options.username, password: options.password }),
    }),
  );
  const headers = { authorization: `Bearer ${login.access_token}` };
  const timed = async <T>(url: string): Promise<{ ms: number; body: T }> => {
    const started = performance.now();
    const body = await json<T>(await fetch(`${base}${url}`, { headers }));
    return { ms: performance.now() - started, body };
  };
  const recallUrl = (prompt: string) => `/api/stories/${storyId}/recall?prompt=${encodeURIComponent(prompt)}`;
  type Recalled = { recalled: { turn: number }[] };

  let firstMs = Number.NaN;
  for (const prompt of prompts) {
    const { ms } = await timed<Recalled>(recallUrl(prompt));
    if (Number.isNaN(firstMs)) firstMs = ms;
  }
  const result: RecallMeasurement = {
    prompts: prompts.map(() => ({ ms: [], turns: [] })),
    firstMs,
    contextMs: [],
  };
  for (let pass = 0; pass < options.passes; pass += 1) {
    for (const [i, prompt] of prompts.entries()) {
      const { ms, body } = await timed<Recalled>(recallUrl(prompt));
      result.prompts[i]!.ms.push(ms);
      result.prompts[i]!.turns = body.recalled.map((line) => line.turn);
    }
  }
  const contextUrl = (prompt: string) =>
    `/api/stories/${storyId}/context?chat_mode=chat&prompt=${encodeURIComponent(prompt)}`;
  for (const prompt of prompts.slice(0, 3)) await timed(contextUrl(prompt));
  for (const prompt of prompts) result.contextMs.push((await timed(contextUrl(prompt))).ms);
  console.log(`RESULT ${JSON.stringify(result)}`);
}

await main();
process.exit(0);
