import { readBoundedBody } from "@custody/shared";

/** What a fetch of an authorization server's document may take. */
export interface FetchLimits {
  maxBytes: number;
  timeoutMs: number;
}

export class FetchLimitExceeded extends Error {
  override readonly name = "FetchLimitExceeded";
}

/**
 * A GET of an identity provider's JSON document (or a POST of a form to it, `body`), without
 * following redirects, ended after `timeoutMs` and refused past `maxBytes`: a slow or huge answer
 * must not hold or fill the server. The answer comes back whole, as a Response (the shape jose's
 * key set fetch takes).
 */
export async function fetchBounded(
  url: string,
  init: { signal?: AbortSignal | null; headers?: Headers | Record<string, string>; body?: URLSearchParams },
  limits: FetchLimits,
): Promise<Response> {
  const timeout = AbortSignal.timeout(limits.timeoutMs);
  const signal = init.signal ? AbortSignal.any([timeout, init.signal]) : timeout;
  const method = init.body === undefined ? "GET" : "POST";
  const response = await fetch(url, {
    method,
    redirect: "manual",
    signal,
    headers: init.headers ?? { Accept: "application/json" },
    ...(init.body === undefined ? {} : { body: init.body }),
  });
  const body = await readBoundedBody(response, limits.maxBytes);
  if (body === null) throw new FetchLimitExceeded(`the answer is longer than the ${limits.maxBytes} bytes accepted`);
  return new Response(response.status === 204 || response.status === 304 ? null : body, { status: response.status, headers: response.headers });
}
