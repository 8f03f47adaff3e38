import { parseJsonExact, stringifyJsonExact } from "@custody/shared";

export interface HttpAnswer {
  status: number;
  headers: Headers;
  body: unknown;
  text: string;
}

/** A bare HTTP caller for tests: real fetch against the real server; bodies read with exact JSON. */
export class HttpCaller {
  constructor(
    readonly base: string,
    private readonly headers: Record<string, string> = {},
  ) {}

  as(operator: string | null): HttpCaller {
    const headers = { ...this.headers };
    delete headers["x-vendor-api-user"];
    if (operator !== null) headers["x-vendor-api-user"] = operator;
    return new HttpCaller(this.base, headers);
  }

  async call(method: string, path: string, body?: unknown, rawBody?: string): Promise<HttpAnswer> {
    const init: RequestInit = { method, headers: { ...this.headers } };
    if (rawBody !== undefined || body !== undefined) {
      init.body = rawBody ?? stringifyJsonExact(body);
      (init.headers as Record<string, string>)["content-type"] = "application/json";
    }
    const response = await fetch(`${this.base}${path}`, init);
    const text = await response.text();
    return { status: response.status, headers: response.headers, text, body: text === "" ? undefined : parseJsonExact(text) };
  }

  get(path: string): Promise<HttpAnswer> {
    return this.call("GET", path);
  }

  post(path: string, body?: unknown): Promise<HttpAnswer> {
    return this.call("POST", path, body);
  }

  put(path: string, body?: unknown): Promise<HttpAnswer> {
    return this.call("PUT", path, body);
  }

  delete(path: string): Promise<HttpAnswer> {
    return this.call("DELETE", path);
  }
}

/** The body as a record, for reading fields in assertions. */
export function obj(answer: HttpAnswer): Record<string, unknown> {
  if (answer.body === null || typeof answer.body !== "object" || Array.isArray(answer.body)) {
    throw new Error(`expected a JSON object, got ${answer.status} ${answer.text}`);
  }
  return answer.body as Record<string, unknown>;
}
