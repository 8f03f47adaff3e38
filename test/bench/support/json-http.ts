import { request, type Agent } from "node:http";

export interface HttpAnswer {
  status: number;
  text: string;
}

/** One HTTP call with a JSON body (when given) on a keep-alive agent; the answer as text. */
export function httpCall(agent: Agent, method: string, url: string, body?: unknown, headers: Record<string, string> = {}): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const text = body === undefined ? undefined : JSON.stringify(body);
    const sent: Record<string, string | number> = { ...headers };
    if (text !== undefined) {
      sent["content-type"] = "application/json";
      sent["content-length"] = Buffer.byteLength(text);
    }
    const call = request(url, { method, agent, headers: sent }, (response) => {
      let answer = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => (answer += chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, text: answer }));
      response.on("error", reject);
    });
    call.on("error", reject);
    call.end(text);
  });
}

/** The call's JSON answer; any status but 2xx throws with the answer's text. */
export async function jsonCall<T = Record<string, unknown>>(
  agent: Agent,
  method: string,
  url: string,
  body?: unknown,
  headers?: Record<string, string>,
): Promise<T> {
  const answer = await httpCall(agent, method, url, body, headers);
  if (answer.status < 200 || answer.status >= 300) throw new Error(`${method} ${url}: HTTP ${answer.status} ${answer.text.slice(0, 500)}`);
  return JSON.parse(answer.text) as T;
}
