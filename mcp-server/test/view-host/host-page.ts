// A host page for the tests, as an MCP Apps host renders a tool's view: a sandboxed frame (scripts,
// no same origin) with the view's HTML, and the package's AppBridge, whose tool calls go to the
// test's real MCP client (hostCallTool, exposed by the test) and so to the real server.
import { AppBridge, PostMessageTransport } from "@modelcontextprotocol/ext-apps/app-bridge";
import type { CallToolResult } from "@modelcontextprotocol/client";

declare global {
  interface Window {
    hostCallTool(params: { name: string; arguments?: Record<string, unknown> }): Promise<CallToolResult>;
    renderView(id: string, html: string, toolInput: Record<string, unknown>, toolResult: CallToolResult): Promise<void>;
  }
}

window.renderView = async (id, html, toolInput, toolResult) => {
  const frame = document.createElement("iframe");
  frame.id = id;
  frame.setAttribute("sandbox", "allow-scripts");
  frame.style.cssText = "width:760px;height:620px;border:1px solid #ccc;display:block;margin:8px";
  document.body.append(frame);
  const view = frame.contentWindow as Window;
  const bridge = new AppBridge(null, { name: "custody-test-host", version: "0" }, { serverTools: {} });
  bridge.oncalltool = (params) => window.hostCallTool(params);
  const initialized = new Promise<void>((resolve) => (bridge.oninitialized = () => resolve()));
  await bridge.connect(new PostMessageTransport(view, view));
  frame.srcdoc = html;
  await initialized;
  await bridge.sendToolInput({ arguments: toolInput });
  await bridge.sendToolResult(toolResult);
};
