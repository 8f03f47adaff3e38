import { readFileSync } from "node:fs";
import { USAGE } from "@custody/mcp-server";
import { describe, expect, it } from "vitest";
import { balancerConfig } from "../support/nginx-balancer.js";

const doc = readFileSync(new URL("../../docs/deployment.md", import.meta.url), "utf8");

describe("docs/deployment.md", () => {
  it("shows the nginx configuration the replica tests run, exactly", () => {
    const block = /<!-- nginx-config:begin -->\n```nginx\n([\s\S]*?)```\n<!-- nginx-config:end -->/.exec(doc)?.[1];
    expect(block).toBe(
      balancerConfig("127.0.0.1:8080", [
        { id: "r1", port: 7541 },
        { id: "r2", port: 7542 },
      ]),
    );
  });

  it("names every flag and environment variable of --help in its table of settings", () => {
    const table = doc.slice(doc.indexOf("## Every setting"));
    for (const name of new Set([...(USAGE.match(/--[a-z][a-z-]+/g) ?? []), ...(USAGE.match(/CUSTODY_[A-Z_]+/g) ?? [])])) {
      if (name === "--help") continue;
      expect(table, name).toContain(`\`${name}`);
    }
  });
});
