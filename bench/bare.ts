// The baseline: a bare Fastify route in a process of its own, as the server runs in its own.
// PORT sets where it listens (127.0.0.1).
import Fastify from "fastify";

const app = Fastify({ logger: false });
app.get("/bare", async () => ({ status: "ok" }));
await app.listen({ port: Number(process.env.PORT ?? 3301), host: "127.0.0.1" });
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    void app.close().then(() => process.exit(0));
  });
}
