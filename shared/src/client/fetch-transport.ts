import type { Transport } from "./attempt.js";
import { readBoundedBody } from "./bounded-body.js";

/** Requests through a fetch function (one a caller gave the client): redirects not followed, aborted through its signal. */
export function fetchTransport(fetcher: typeof fetch, baseUrl: string): Transport {
  return (request, maxBytes) => {
    const controller = new AbortController();
    const init: RequestInit = { method: request.method, headers: request.headers, redirect: "manual", signal: controller.signal };
    if (request.body !== undefined) init.body = request.body;
    const answer = fetcher(baseUrl + request.path, init).then(async (response) => ({
      status: response.status,
      headers: response.headers,
      body: await readBoundedBody(response, maxBytes),
    }));
    return { answer, abort: () => controller.abort() };
  };
}
