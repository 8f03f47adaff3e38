import type { IncomingMessage, ServerResponse } from "node:http";
import { decisionConsent, writeSpecOfTool, type CommitResult, type PlannedWrite } from "@custody/shared";
import { personNonce } from "../guard/person-intent.js";
import { questionDigest } from "../guard/question-state.js";
import { requestLine } from "../guard/plan-view.js";
import { questionText } from "../guard/write-answers.js";
import type { ConfirmSignIn, ServerContext } from "../server/server-context.js";
import { isPageSecret, openPageId, pageSecret, type PageTarget } from "./page-handle.js";
import { decisionForm, linkHtml, PAGE_HEADERS, pageHtml } from "./page-html.js";
import { CONFIRM_PATH } from "./page-paths.js";
import { pageSigner } from "./page-signer.js";

const READ_ONLY =
  "This copy is read-only: it cannot confirm. Confirm or decline on the page this server opened in your browser, or in an MCP client that shows forms.";
/** A decision's form is three short fields: anything longer is not one this page posted. */
const MAX_FORM_BYTES = 4096;

function reply(res: ServerResponse, status: number, title: string, paragraphs: readonly string[], pre: string | null = null, form = ""): void {
  res.writeHead(status, PAGE_HEADERS);
  res.end(pageHtml(title, paragraphs, pre, form));
}

function readForm(req: IncomingMessage): Promise<URLSearchParams | null> {
  if (Number(req.headers["content-length"] ?? 0) > MAX_FORM_BYTES || !/^application\/x-www-form-urlencoded\b/i.test(req.headers["content-type"] ?? "")) {
    req.resume();
    return Promise.resolve(null);
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_FORM_BYTES) chunks.push(chunk);
    });
    req.on("end", () => resolve(size > MAX_FORM_BYTES ? null : new URLSearchParams(Buffer.concat(chunks).toString("utf8"))));
    req.on("error", reject);
  });
}

/** The title the person reads for the tool (its write's own), never the model's words. */
function titleOf(target: PageTarget): string {
  return writeSpecOfTool(target.tool)?.identity.title ?? target.tool;
}

/** What the page shows: the question the form would ask (what moves first, the figures of the dry run), the exact body, the expiry. */
function shown(target: PageTarget, plan: PlannedWrite, expiresAt: number): { text: string; digest: string } {
  const question = questionText(titleOf(target), plan);
  return { text: [question, "", requestLine(plan), `Expires: ${new Date(expiresAt).toISOString()}`].join("\n"), digest: questionDigest(question) };
}

function outcomeOf(result: CommitResult): { status: number; title: string; lines: string[] } {
  switch (result.status) {
    case "submitted":
      return {
        status: 200,
        title: "Submitted",
        lines: [`Transaction ${result.transaction.id} (${result.transaction.status}). The assistant's next call with the same reference reads this outcome.`],
      };
    case "declined":
      return { status: 200, title: "Declined", lines: ["Nothing was sent."] };
    case "uncertain":
      return { status: 200, title: "Outcome unknown", lines: [`${result.message}. It is looked up; it was not and will not be sent again.`] };
    case "rejected":
      return { status: 200, title: "Refused by the service", lines: [`It was not applied: ${result.message}`] };
    default:
      return {
        status: 409,
        title: "Not sent",
        lines: ["message" in result ? result.message : `stopped by the checks (${result.status})`, "Nothing was sent."],
      };
  }
}

/**
 * `GET /confirm/<id>`: the dry run the id names, with Confirm and Decline when the link carries the
 * page's secret (`?key=`, the person's link), read-only without it (the model's link); `POST`: the person's
 * decision, taken only with the page's own secret, from the page's own origin (`expectedOrigin`),
 * for a dry run still open: the intent is redeemed once, so a second post sends nothing. The
 * transport has already checked Host (and Origin when sent) as it does for the MCP endpoint.
 */
export async function answerConfirmPage(
  req: IncomingMessage,
  res: ServerResponse,
  ctx: ServerContext,
  expectedOrigin: string,
  signIn: ConfirmSignIn | null,
): Promise<void> {
  const path = new URL(req.url ?? "/", "http://localhost").pathname;
  // An id is base64url, dots and a prefix: nothing to decode; anything else is not one this server made.
  const id = path.slice(CONFIRM_PATH.length);
  const target = openPageId(ctx.tokens, id);
  if (target === null) return reply(res, 404, "No such confirmation", ["This link is not one this server made."]);
  if (req.method !== "GET" && req.method !== "POST") {
    res.setHeader("Allow", "GET, POST");
    return reply(res, 405, "Method not allowed", ["GET shows the write, POST decides it."]);
  }
  const signer = pageSigner(req, ctx, target, id, signIn);
  if ("refusal" in signer) {
    const { status, title, lines, link } = signer.refusal;
    return reply(res, status, title, lines, null, link === undefined ? "" : linkHtml(link.href, link.text));
  }
  // The person's role acts as this operator (a single user: the server's).
  if (target.operator !== signer.ctx.operator)
    return reply(res, 404, "No such confirmation", ["This link is not one this server made for you (or your role changed since)."]);
  const road = signer.ctx.road;
  const nonce = personNonce(ctx.tokens, target.reference, target);
  const request = await road.keptRequest(nonce);
  if (request === null)
    return reply(res, 410, "Nothing to confirm", [
      "This write was already confirmed or declined, was replaced by a newer dry run, or expired. Nothing more will be sent from this page.",
    ]);
  const call = { actor: { person: signer.person } };
  if (req.method === "GET") {
    const asked = await road.question(request, nonce, call);
    if (asked.status !== "question") return reply(res, 409, "Cannot be confirmed", [outcomeOf(asked).lines.join(" ")]);
    const page = shown(target, asked.plan, asked.sealed.expires_at);
    // A signed-in person's page is theirs by their sign-in: it carries the secret its form posts back.
    const key = signer.person !== null ? pageSecret(ctx.tokens, id) : (new URL(req.url ?? "/", "http://localhost").searchParams.get("key") ?? "");
    // The link the model was given shows the write but cannot decide it: only the person's link, opened in their browser, carries the key.
    if (!isPageSecret(ctx.tokens, id, key)) return reply(res, 200, `Waiting for you: ${titleOf(target)}`, [READ_ONLY], page.text);
    return reply(
      res,
      200,
      `Confirm: ${titleOf(target)}`,
      ["An assistant prepared this write. Nothing is sent unless you confirm it here (once)."],
      page.text,
      decisionForm(`${CONFIRM_PATH}${id}`, key, page.digest),
    );
  }
  // A post from any other page, or a request without Origin (not a browser's form), is refused: a model cannot post for the person.
  if (req.headers.origin !== expectedOrigin)
    return reply(res, 403, "Refused", ["This decision did not come from this confirmation page (Origin). Nothing was sent."]);
  const form = await readForm(req);
  const secret = form?.get("secret") ?? "";
  if (form === null || !isPageSecret(ctx.tokens, id, secret))
    return reply(res, 403, "Refused", ["This decision did not carry the page's own secret. Nothing was sent."]);
  const decision = form.get("decision");
  const digest = form.get("question") ?? "";
  if (decision !== "confirm" && decision !== "decline") return reply(res, 400, "Refused", ["Choose Confirm or Decline. Nothing was sent."]);
  const result = await road.commit(request, nonce, {
    ...call,
    consent: { ask: async (plan) => decisionConsent(decision, "page", digest, shown(target, plan, 0).digest) },
  });
  const outcome = outcomeOf(result);
  return reply(res, outcome.status, outcome.title, outcome.lines);
}
