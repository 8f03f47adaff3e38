import { fileURLToPath } from "node:url";
import { EXTENSION_ID, RESOURCE_MIME_TYPE } from "@modelcontextprotocol/ext-apps/server";
import { Client, type CallToolResult } from "@modelcontextprotocol/client";
import { build } from "esbuild";
import type { Browser, Frame, Page } from "playwright-core";
import type { Person } from "@custody/shared";
import type { ServerContext } from "../../src/server/server-context.js";
import { connectClient } from "./mcp-harness.js";

const HOST_PAGE = fileURLToPath(new URL("../view-host/host-page.ts", import.meta.url));
const HOST_ORIGIN = "http://host.test";

/** A client that declares the MCP Apps extension (HTML views), as an Apps host's client does, on a session of its own. */
export function connectViewClient(ctx: ServerContext, person: Person | null = null): Promise<{ client: Client; close(): Promise<void> }> {
  return connectClient(
    ctx,
    new Client({ name: "apps-host", version: "0" }, { capabilities: { extensions: { [EXTENSION_ID]: { mimeTypes: [RESOURCE_MIME_TYPE] } } } }),
    person,
  );
}

let hostScript: Promise<string> | undefined;

function hostPageScript(): Promise<string> {
  hostScript ??= build({
    entryPoints: [HOST_PAGE],
    bundle: true,
    format: "iife",
    platform: "browser",
    target: "es2022",
    write: false,
    logLevel: "warning",
  }).then((result) => (result.outputFiles[0] as { text: string }).text);
  return hostScript;
}

/** What the host page (view-host/host-page.ts) defines. */
interface HostPage {
  renderView(id: string, html: string, toolInput: Record<string, unknown>, toolResult: CallToolResult): Promise<void>;
}

export interface ViewHost {
  page: Page;
  /** The tools the views called through the host, in order. */
  calls: { name: string; arguments?: Record<string, unknown> }[];
  /** Renders the view with a tool call's input and result, as a host does after the call; the view's frame once it has the result. */
  render(toolInput: Record<string, unknown>, result: CallToolResult): Promise<Frame>;
}

/** A host page in Chromium whose views call tools through `client` (the test's real MCP client on the real server). */
export async function openViewHost(browser: Browser, client: Client): Promise<ViewHost> {
  const page = await browser.newPage({ viewport: { width: 800, height: 700 } });
  const calls: ViewHost["calls"] = [];
  await page.exposeFunction("hostCallTool", async (params: { name: string; arguments?: Record<string, unknown> }) => {
    calls.push(params);
    return client.callTool(params);
  });
  const script = await hostPageScript();
  await page.route(`${HOST_ORIGIN}/`, (route) =>
    route.fulfill({ contentType: "text/html", body: `<!doctype html><html><body><script>${script}</script></body></html>` }),
  );
  await page.goto(`${HOST_ORIGIN}/`);
  const html = await viewHtml(client);
  let views = 0;
  return {
    page,
    calls,
    async render(toolInput, result) {
      const id = `view-${(views += 1)}`;
      await page.evaluate(([frameId, document, input, answer]) => (globalThis as unknown as HostPage).renderView(frameId, document, input, answer), [
        id,
        html,
        toolInput,
        result,
      ] as const);
      const frame = await (await page.$(`#${id}`))?.contentFrame();
      if (!frame) throw new Error("the view's frame is not there");
      return frame;
    },
  };
}

/** The view's HTML, read as a host reads it: the write tool's `_meta.ui.resourceUri`, then resources/read. */
export async function viewHtml(client: Client): Promise<string> {
  const tools = await client.listTools();
  const uri = (tools.tools.find((tool) => tool.name === "create_transaction")?._meta as { ui?: { resourceUri?: string } } | undefined)?.ui?.resourceUri;
  if (uri === undefined) throw new Error("create_transaction links no view");
  const read = await client.readResource({ uri });
  const content = read.contents[0] as { text?: string; mimeType?: string };
  if (content.mimeType !== RESOURCE_MIME_TYPE || content.text === undefined) throw new Error(`the view is not an MCP App's HTML (${content.mimeType})`);
  return content.text;
}
