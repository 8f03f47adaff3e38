// What the confirmation view shows of a write tool's answer: what moves first (the account, the
// amounts in both units, the destinations, the fee, the balances before and after), then the dates
// it leads to, the checks that need attention, governance, the exact request and the expiry. Text
// only (textContent): every string may carry workspace text.

type Fields = Record<string, unknown>;

function isFields(value: unknown): value is Fields {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function text(value: unknown): string {
  return typeof value === "string" ? value : typeof value === "number" ? String(value) : "";
}

/** An amount in both units: "1.5 SOL (1500000000 base units)". */
export function amountText(value: unknown): string {
  if (!isFields(value)) return "";
  return `${text(value.display)} ${text(value.unit)} (${text(value.base_units)} base units)`;
}

function element<K extends keyof HTMLElementTagNameMap>(tag: K, content = "", className = ""): HTMLElementTagNameMap[K] {
  const made = document.createElement(tag);
  made.textContent = content;
  if (className !== "") made.className = className;
  return made;
}

/** What the answer's `_meta` gives the view beside the structured content. */
export interface ViewExtras {
  /** The exact request body. */
  body: string;
  /** The earlier write a repeat sends again, or "". */
  repeats: string;
  /** Whether the request's max_fees was proposed from the fee estimate (the caller gave none). */
  maxFeesProposed: boolean;
}

/** The rows of what moves, in the order the dry run's text gives them. */
function movesRows(answer: Fields, extras: ViewExtras): [string, string][] {
  const rows: [string, string][] = [];
  const person = answer.prepared_for;
  if (isFields(person))
    rows.push(["Prepared for", `${text(person.name)} ${person.email === undefined ? "" : `<${text(person.email)}> `}(subject ${text(person.subject)})`.trim()]);
  const account = answer.account;
  if (isFields(account)) rows.push(["Account", `${text(account.name)} (id ${text(account.id)})`]);
  if (isFields(answer.amounts))
    for (const [name, amount] of Object.entries(answer.amounts)) {
      const proposed = name === "max_fees" && extras.maxFeesProposed ? ", proposed from the fee estimate" : "";
      rows.push([name === "amount" ? "Amount" : name, `${amountText(amount)}${proposed}`]);
    }
  if (Array.isArray(answer.destinations))
    for (const destination of answer.destinations) if (isFields(destination)) rows.push([text(destination.role), text(destination.value)]);
  const fee = answer.fee;
  if (isFields(fee)) rows.push(["Fee", "estimated" in fee ? `${amountText(fee.estimated)} (estimated)` : `unknown: ${text(fee.unknown)}`]);
  if (Array.isArray(answer.balances))
    for (const balance of answer.balances)
      if (isFields(balance)) rows.push([`Balance ${text(balance.name)}`, `${amountText(balance.before)} → ${amountText(balance.after)}`]);
  return rows;
}

function names(value: unknown): string[] {
  return Array.isArray(value) ? value.map(text) : [];
}

/** The forecast's outcome and, for a write that will wait, each step's approvals still missing and who can give them (as the form says it). */
function governanceText(governance: Fields): string {
  const steps = Array.isArray(governance.pending_steps) ? governance.pending_steps.filter(isFields) : [];
  const waiting = steps.map((step) => {
    const approvers = [...names(step.api_approvers), ...names(step.human_approvers)].join(", ");
    return `step ${text(step.step)} needs ${text(step.missing)} more approval(s) from ${approvers === "" ? "nobody else" : approvers}`;
  });
  return [text(governance.outcome), ...(waiting.length === 0 ? [] : [waiting.join("; ")])].join(": ");
}

function list(rows: readonly [string, string][]): HTMLDListElement {
  const dl = element("dl");
  for (const [name, value] of rows) dl.append(element("dt", name), element("dd", value));
  return dl;
}

/**
 * The dry run the person is asked about, as nodes; the earlier write a repeat sends again is shown once after what
 * moves, as the form shows it, not again among the checks.
 */
export function renderDryRun(answer: Fields, extras: ViewExtras): Node[] {
  const { body, repeats } = extras;
  const nodes: Node[] = [list(movesRows(answer, extras))];
  if (repeats !== "") nodes.push(element("p", `Repeats: ${repeats}`, "warn"));
  // The dates the write leads to (an unbond's unlocks_at, a deactivation's withdrawable_at), as the form and the page give them.
  if (isFields(answer.dates) && Object.keys(answer.dates).length > 0) {
    const dates = Object.entries(answer.dates).map(([name, at]) => `${name} ${text(at)}`);
    nodes.push(element("p", `Dates: ${dates.join("; ")} (from the service's clock).`));
  }
  if (Array.isArray(answer.checks))
    for (const check of answer.checks)
      if (isFields(check) && !(repeats !== "" && check.code === "REPEAT_ACKNOWLEDGED"))
        nodes.push(element("p", `${text(check.severity)} ${text(check.code)}: ${text(check.message)}`, "warn"));
  if (isFields(answer.governance)) nodes.push(element("p", `Governance: ${governanceText(answer.governance)}`));
  const request = isFields(answer.request) ? `${text(answer.request.method)} ${text(answer.request.path)}` : "";
  nodes.push(element("p", `Request: ${request}`), element("pre", body));
  nodes.push(element("p", `Expires: ${text(answer.expires_at)}`));
  return nodes;
}

export { element, isFields, text };
