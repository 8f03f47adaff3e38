/** Whether an answer's declared length (its Content-Length) alone is over the limit: then nothing of it is read. */
export function declaresMoreThan(contentLength: string | null | undefined, maxBytes: number): boolean {
  return Number(contentLength ?? Number.NaN) > maxBytes;
}

/** Bytes counted as they stream in (a compressed body's, before decoding). */
export class ByteLimit {
  #size = 0;

  constructor(private readonly maxBytes: number) {}

  /** False once the bytes counted so far are more than the limit (stop reading). */
  take(byteLength: number): boolean {
    this.#size += byteLength;
    return this.#size <= this.maxBytes;
  }

  get size(): number {
    return this.#size;
  }
}

/** An answer's body as it streams in, refused as soon as it passes maxBytes (whatever its Content-Length said). */
export class BoundedChunks {
  readonly #chunks: Uint8Array[] = [];
  readonly #limit: ByteLimit;

  constructor(maxBytes: number) {
    this.#limit = new ByteLimit(maxBytes);
  }

  /** Keeps the chunk; false once the body is longer than the limit (stop reading it). */
  add(chunk: Uint8Array): boolean {
    if (!this.#limit.take(chunk.byteLength)) return false;
    this.#chunks.push(chunk);
    return true;
  }

  bytes(): Uint8Array {
    return this.#chunks.length === 1 ? (this.#chunks[0] as Uint8Array) : Buffer.concat(this.#chunks);
  }
}

const decoder = new TextDecoder();

/** The body as text, as response.text() gives it: invalid sequences replaced, a leading BOM dropped. */
export function decodeBody(body: Uint8Array): string {
  return decoder.decode(body);
}

/**
 * A fetch answer's body, or null as soon as it is known to be longer than maxBytes: refused on its
 * declared length before anything is read, else read until it passes the limit (the rest is not read).
 */
export async function readBoundedBody(response: Response, maxBytes: number): Promise<Uint8Array | null> {
  const tooLong = declaresMoreThan(response.headers.get("content-length"), maxBytes);
  if (tooLong || !response.body) {
    await response.body?.cancel();
    return tooLong ? null : new Uint8Array();
  }
  const reader = response.body.getReader();
  const chunks = new BoundedChunks(maxBytes);
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return chunks.bytes();
    if (!chunks.add(value)) {
      await reader.cancel();
      return null;
    }
  }
}
