// The long-story bench's probe: another story's card asked again and again while something else runs, each
// answer's time kept with what was running when it was asked.

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export type ProbeAnswer = { ms: number; phase: string };

/** Asks `ask` until `stop` is called (20 ms apart); `phase()` is read as each request is made. */
export function probeLoop(
  ask: () => Promise<Response>,
  phase: () => string = () => "",
): { stop: () => Promise<ProbeAnswer[]> } {
  const times: ProbeAnswer[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const asked = phase();
      const started = performance.now();
      const res = await ask();
      await res.arrayBuffer();
      times.push({ ms: performance.now() - started, phase: asked });
      await sleep(20);
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      return times;
    },
  };
}
