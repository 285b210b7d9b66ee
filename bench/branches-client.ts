// The measuring side of the branches budget (bench/branches.ts), in its own process on a core of its own: it
// logs in and opens two stories over HTTP only, as the web app does, and prints one line `RESULT {json}` (a
// BranchesMeasurement) at the end. argv[2] is JSON: { base, username, password, single, branched, passes }.
//
// Opening a story is one round trip: GET /api/stories/{id}/messages (the story itself comes with the list).
// The two stories' reads alternate, so a change in the machine's load falls on both alike; one warm-up pass
// of each is not counted. Each answer is checked to be the branch's own messages, all of them.

export type BranchesMeasurement = { singleMs: number[]; branchedMs: number[]; messages: number };

type Options = {
  base: string;
  username: string;
  password: string;
  single: string;
  branched: string;
  /** The first words every message of the viewed branch starts with. */
  marker: string;
  expected: number;
  passes: number;
};

const options = JSON.parse(process.argv[2] ?? "{}") as Options;

async function json<T>(res: Response): Promise<T> {
  if (!res.ok) throw new Error(`${res.url}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

async function main() {
  const { base } = options;
  const login = await json<{ access_token: string }>(
    await fetch(`${base}/api/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: options.username, password: options.password }),
    }),
  );
  const headers = { authorization: `Bearer ${login.access_token}` };
  type Messages = { messages: { content: string }[] };
  const open = async (storyId: string) => {
    const started = performance.now();
    const body = await json<Messages>(await fetch(`${base}/api/stories/${storyId}/messages`, { headers }));
    return { ms: performance.now() - started, body };
  };
  const result: BranchesMeasurement = { singleMs: [], branchedMs: [], messages: 0 };
  for (let pass = -1; pass < options.passes; pass++) {
    const single = await open(options.single);
    const branched = await open(options.branched);
    if (branched.body.messages.length !== options.expected) {
      throw new Error(`the branch read ${branched.body.messages.length} messages, not ${options.expected}`);
    }
    if (!branched.body.messages.every((message) => message.content.startsWith(options.marker))) {
      throw new Error("the story's read is not its viewed branch's own messages");
    }
    if (pass < 0) continue;
    result.singleMs.push(single.ms);
    result.branchedMs.push(branched.ms);
    result.messages = branched.body.messages.length;
  }
  console.log(`RESULT ${JSON.stringify(result)}`);
}

await main();
