import { z } from "zod";

export const EXAMPLE_BASE_URL = "http://127.0.0.1:8080/module";

/** Each rule of a base URL, named in its issue's `params.rule` so a surface can add its own hint to one. */
export type BaseUrlRule = "absolute" | "http" | "credentials" | "query";

/**
 * A workspace's base URL: absolute http(s), no credentials (they would be logged and sent), no query or fragment.
 * Whitespace around it is trimmed first, and the trimmed address is the one used: the URL parser strips only ASCII
 * spaces and controls, so a trailing no-break space pasted with it would otherwise become part of the path.
 */
export const ServiceBaseUrl = z
  .string()
  .trim()
  .superRefine((value, ctx) => {
    const problem = (rule: BaseUrlRule, message: string) => ctx.addIssue({ code: "custom", message, params: { rule } });
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      problem("absolute", `must be an absolute URL such as ${EXAMPLE_BASE_URL}`);
      return;
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") problem("http", "must use http or https");
    if (url.username !== "" || url.password !== "") problem("credentials", "must not carry credentials");
    if (url.search !== "" || url.hash !== "") problem("query", "must have no query or fragment");
  });

/** The rule a ServiceBaseUrl issue names, if it is one of them. */
export function baseUrlRule(issue: z.core.$ZodIssue): BaseUrlRule | undefined {
  return issue.code === "custom" ? (issue.params?.rule as BaseUrlRule | undefined) : undefined;
}
