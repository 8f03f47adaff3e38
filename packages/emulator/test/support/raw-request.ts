import { request } from "node:http";

export interface RawAnswer {
  status: number;
  text: string;
  body: unknown;
}

/**
 * One request with exactly the headers given (fetch will not let a test set Host; without a `host`
 * header none is sent), to 127.0.0.1 whatever the Host says.
 */
export function rawRequest(url: string, method: string, headers: Record<string, string>, body?: string): Promise<RawAnswer> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const sent = request({ host: "127.0.0.1", port: target.port, path: `${target.pathname}${target.search}`, method, headers, setHost: false }, (answer) => {
      let text = "";
      answer.setEncoding("utf8");
      answer.on("data", (chunk: string) => (text += chunk));
      answer.on("end", () => resolve({ status: answer.statusCode ?? 0, text, body: text === "" ? undefined : (JSON.parse(text) as unknown) }));
    });
    sent.on("error", reject);
    sent.end(body);
  });
}
