// The confirmation view (an MCP App): the host renders it with a write tool's answer; on a dry run
// it shows what would be sent, and its Confirm or Decline calls the server's app-only tool with the
// token the answer's `_meta` gave it (never shown to the model). Anything else it shows as the outcome.
import { App, PostMessageTransport, type McpUiToolResultNotification } from "@modelcontextprotocol/ext-apps";
import { element, isFields, renderDryRun, text } from "./render-write.js";

// The server's names (src/app-view/confirm-view.ts): the view is bundled on its own, for the browser.
const DECIDE_WRITE_TOOL = "decide_write";
const VIEW_META_KEY = "custody/confirm";

type ToolResult = McpUiToolResultNotification["params"];

const app = new App({ name: "custody-confirm-view", version: "1" }, {});
const root = document.getElementById("view") as HTMLElement;

function show(...nodes: Node[]): void {
  root.replaceChildren(...nodes);
}

/** The answer's first text (what the server told the model), for an outcome. */
function firstText(result: ToolResult): string {
  const item = result.content?.find((block) => block.type === "text");
  return item !== undefined && "text" in item ? item.text : "";
}

/** Each status's heading; any other status sent nothing (refused, blocked, expired, failed). */
const HEADINGS: Record<string, string> = {
  submitted: "Submitted",
  declined: "Declined",
  uncertain: "Outcome unknown, it may be applied",
  waiting_for_person: "Waiting for you",
  dry_run: "Dry run",
};

function showOutcome(result: ToolResult): void {
  const answer = isFields(result.structuredContent) ? result.structuredContent : {};
  const status = text(answer.status);
  show(element("h1", HEADINGS[status] ?? "Not sent"), element("p", firstText(result)));
}

/** The person's decision, sent once: both buttons go away before the call. */
async function decide(decision: "confirm" | "decline", confirm: { tool: string; token: string; question: string }, actions: HTMLElement): Promise<void> {
  actions.remove();
  const outcome = element("p", decision === "confirm" ? "Sending…" : "Declining…");
  outcome.id = "outcome";
  root.append(outcome);
  try {
    const result = await app.callServerTool({ name: DECIDE_WRITE_TOOL, arguments: { ...confirm, decision } });
    const answer = isFields(result.structuredContent) ? result.structuredContent : {};
    outcome.textContent = `${HEADINGS[text(answer.status)] ?? "Not sent"}: ${firstText(result)}`;
  } catch (error) {
    outcome.textContent =
      "Not known whether it was sent: " +
      `${error instanceof Error ? error.message : String(error)}. Ask the assistant to ` +
      "look it up; do not send it again.";
  }
}

function showResult(result: ToolResult): void {
  const answer = isFields(result.structuredContent) ? result.structuredContent : {};
  const meta = isFields(result._meta) ? result._meta[VIEW_META_KEY] : undefined;
  if (text(answer.status) !== "dry_run" || !isFields(meta)) return showOutcome(result);
  const confirm = { tool: text(meta.tool), token: text(meta.token), question: text(meta.question) };
  const confirmButton = element("button", "Confirm");
  confirmButton.id = "confirm";
  const declineButton = element("button", "Decline");
  declineButton.id = "decline";
  const actions = element("div", "", "actions");
  actions.append(confirmButton, declineButton);
  confirmButton.addEventListener("click", () => void decide("confirm", confirm, actions));
  declineButton.addEventListener("click", () => void decide("decline", confirm, actions));
  // A write sent again on purpose says so first, as the form does: a fixed sentence, before any figure or workspace text.
  const repeat = text(meta.repeat);
  show(
    element("h1", `Confirm: ${text(meta.title)}`),
    ...(repeat === "" ? [] : [element("p", repeat, "repeat")]),
    element("p", `An assistant prepared this write, as operator ${text(meta.operator)}. Nothing is sent unless you confirm it here.`),
    ...renderDryRun(answer, { body: text(meta.body), repeats: text(meta.repeats), maxFeesProposed: meta.max_fees_proposed === true }),
    element("p", "Submit it?"),
    actions,
  );
}

app.ontoolresult = showResult;
void app.connect(new PostMessageTransport(window.parent, window.parent));
