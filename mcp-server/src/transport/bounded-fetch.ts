/** What a fetch of an authorization server's document may take. */
export interface FetchLimits {
  maxBytes: number;
  timeoutMs: number;
}

export class FetchLimitExceeded extends Error {
  override readonly name = "FetchLimitExceeded";
}

async function boundedBody(response: Response, maxBytes: number): Promise<Uint8Array> {
  const declared = Number(response.headers.get("content-length") ?? "0");
  if (declared > maxBytes) {
    await response.body?.cancel();
    throw new FetchLimitExceeded(`the answer declares ${declared} bytes, more than the ${maxBytes} accepted`);
  }
  const chunks: Uint8Array[] = [];
  let length = 0;
  const reader = response.body?.getReader();
  for (;;) {
    const next = await reader?.read();
    if (next === undefined || next.done) break;
    length += next.value.byteLength;
    if (length > maxBytes) {
      await reader?.cancel();
      throw new FetchLimitExceeded(`the answer is longer than the ${maxBytes} bytes accepted`);
    }
    chunks.push(next.value);
  }
  return Buffer.concat(chunks);
}

/**
 * A GET of an identity provider's JSON document, without following redirects, ended after
 * `timeoutMs` and refused past `maxBytes`: a slow or huge answer must not hold or fill the server.
 * The answer comes back whole, as a Response (the shape jose's key set fetch takes).
 */
export async function fetchBounded(url: string, init: { signal?: AbortSignal | null; headers?: Headers | Record<string, string> }, limits: FetchLimits): Promise<Response> {
  const timeout = AbortSignal.timeout(limits.timeoutMs);
  const signal = init.signal ? AbortSignal.any([timeout, init.signal]) : timeout;
  const response = await fetch(url, { method: "GET", redirect: "manual", signal, headers: init.headers ?? { Accept: "application/json" } });
  const body = await boundedBody(response, limits.maxBytes);
  return new Response(response.status === 204 || response.status === 304 ? null : body, { status: response.status, headers: response.headers });
}
