import { request, type IncomingHttpHeaders } from "node:http";

/** A raw request to a confirmation page with exactly these headers (Origin and Host among them, or not): what a browser would not let a test forge. */
export function pageRequest(
  method: "GET" | "POST",
  link: string,
  body = "",
  headers: Record<string, string> = {},
): Promise<{ status: number; text: string; headers: IncomingHttpHeaders }> {
  const url = new URL(link);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: url.hostname, port: url.port, path: `${url.pathname}${url.search}`, method, headers: { "Content-Length": Buffer.byteLength(body), ...headers } },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (text += chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, text, headers: res.headers }));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}
