export interface RouteMatch<H> {
  handler: H;
  params: Record<string, string>;
}

interface Route<H> {
  method: string;
  segments: string[];
  literals: number;
  handler: H;
}

/** Method and path patterns such as `/transactions/:transaction_id/history`; literal segments win over parameters. */
export class Router<H> {
  private readonly bySize = new Map<number, Route<H>[]>();

  add(method: string, pattern: string, handler: H): this {
    const segments = pattern.split("/").filter((part) => part !== "");
    const route = { method, segments, literals: segments.filter((part) => !part.startsWith(":")).length, handler };
    const list = this.bySize.get(segments.length) ?? [];
    list.push(route);
    list.sort((a, b) => b.literals - a.literals);
    this.bySize.set(segments.length, list);
    return this;
  }

  /**
   * The handler for the request; `methods` lists the allowed ones when only the method differs.
   * HEAD is served by the GET handler (RFC 9110 9.3.2: the same answer without its body, which
   * node:http leaves out of a HEAD answer).
   */
  match(method: string, path: string): RouteMatch<H> | { methods: string[] } | undefined {
    const parts = path.split("/").filter((part) => part !== "");
    const wanted = method === "HEAD" ? "GET" : method;
    const methods: string[] = [];
    for (const route of this.bySize.get(parts.length) ?? []) {
      const params = matchSegments(route.segments, parts);
      if (!params) continue;
      if (route.method === wanted) return { handler: route.handler, params };
      methods.push(route.method);
      if (route.method === "GET") methods.push("HEAD");
    }
    return methods.length > 0 ? { methods } : undefined;
  }
}

function matchSegments(pattern: readonly string[], parts: readonly string[]): Record<string, string> | undefined {
  const params: Record<string, string> = {};
  for (let index = 0; index < pattern.length; index += 1) {
    const expected = pattern[index] ?? "";
    const actual = parts[index] ?? "";
    if (expected.startsWith(":")) {
      try {
        params[expected.slice(1)] = decodeURIComponent(actual);
      } catch {
        return undefined;
      }
    } else if (expected !== actual) {
      return undefined;
    }
  }
  return params;
}
