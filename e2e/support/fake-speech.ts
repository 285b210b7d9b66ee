// A stand-in for an OpenAI-compatible transcription endpoint (POST /v1/audio/transcriptions, multipart
// with `file` and `model`, answering {"text": ...}): the wire format the server's speech adapter speaks.
import http from "node:http";

export interface FakeSpeech {
  url: string;
  /** What each request carried: the model and the uploaded file's type and size. */
  received: { model: string; contentType: string; bytes: number }[];
  close: () => Promise<void>;
}

export async function startFakeSpeech(port: number, text: string): Promise<FakeSpeech> {
  const received: FakeSpeech["received"] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", async () => {
      if (request.method !== "POST" || !request.url?.endsWith("/audio/transcriptions")) {
        response
          .writeHead(404, { "Content-Type": "application/json" })
          .end('{"error":{"message":"not found"}}');
        return;
      }
      const body = new Request("http://fake/", {
        method: "POST",
        headers: { "content-type": request.headers["content-type"] ?? "" },
        body: Buffer.concat(chunks),
      });
      const form = await body.formData();
      const file = form.get("file");
      received.push({
        model: String(form.get("model") ?? ""),
        contentType: file instanceof Blob ? file.type : "",
        bytes: file instanceof Blob ? file.size : 0,
      });
      response.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify({ text }));
    });
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${port}/v1`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
