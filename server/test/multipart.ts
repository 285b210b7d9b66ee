// A multipart/form-data body with one file field, as a browser's FormData sends it (for upload routes).
import { randomUUID } from "node:crypto";

export function multipart(file: Buffer, filename = "card.png", field = "file") {
  const boundary = `----storyverse${randomUUID()}`;
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`;
  return {
    payload: Buffer.concat([Buffer.from(head), file, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
  };
}
