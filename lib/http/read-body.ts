import { ApiError } from "@/lib/http/api-error";

/**
 * The one place a route reads its request body (parseJsonBody and parseFormBody build on it):
 * at most `maxBytes`, refused with 413 as soon as the declared Content-Length or the bytes
 * received so far pass the cap, so an oversize body is never read to its end nor held in memory.
 */
export async function readBodyBytes(req: Request, maxBytes: number): Promise<Buffer> {
  // A Content-Length that is not a number is left to the count below.
  const declared = Number(req.headers.get("content-length") ?? "0");
  if (declared > maxBytes) throw bodyTooLarge(maxBytes);
  if (!req.body) return Buffer.alloc(0);
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    let chunk: ReadableStreamReadResult<Uint8Array>;
    try {
      chunk = await reader.read();
    } catch {
      // The client went away mid-body (or sent a broken chunked encoding): nobody reads the answer.
      throw new ApiError(400, "The request body could not be read completely.");
    }
    if (chunk.done) break;
    size += chunk.value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      throw bodyTooLarge(maxBytes);
    }
    chunks.push(chunk.value);
  }
  return Buffer.concat(chunks);
}

/** The body as UTF-8 text (invalid sequences become U+FFFD), capped as readBodyBytes. */
export async function readBodyText(req: Request, maxBytes: number): Promise<string> {
  return (await readBodyBytes(req, maxBytes)).toString("utf8");
}

function bodyTooLarge(maxBytes: number): ApiError {
  return new ApiError(413, `Request body is larger than ${maxBytes} bytes.`);
}
