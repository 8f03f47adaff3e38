import { createHash, randomBytes } from "node:crypto";
import { createServer } from "node:http";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ACCOUNTS, PAGE_CLIENT, PAGE_CLIENT_SECRET, startAuthorizationServer, type AuthorizationServer } from "../../test/support/authorization-server.js";
import { freePort } from "../../test/support/free-port.js";
import { openTeamSession, type TeamSession } from "../../test/support/team-session.js";
import { pageId } from "../src/confirm-page/page-handle.js";
import { sessionCookie } from "../src/confirm-page/page-session.js";
import { startHttpServer, type RunningHttpServer } from "../src/transport/http-server.js";
import { transactionsWithLabel } from "./harness/demo-workspace.js";
import { call } from "./harness/mcp-harness.js";
import { modernClient } from "./harness/modern-client.js";
import { pageRequest } from "./harness/page-request.js";
import { startAlternatingProxy } from "./harness/alternating-proxy.js";
import { recordedWorkspace } from "./harness/recorded-workspace.js";

// The confirmation page on a team server (--auth-issuer): the person signs in on it at the issuer
// (oidc-provider, its login and consent forms filled in Chromium), through the page's own client,
// authorization code with PKCE; only the person the write was prepared for sees and decides it.

const SESSION_COOKIE = "custody_confirm_session";
const workspace = recordedWorkspace({ browser: "confirm-page-sign-in" });
const { sendArgs, sends } = workspace;
let authorization: AuthorizationServer;
let http: RunningHttpServer;
let resource: string;

beforeAll(async () => {
  const port = await freePort();
  resource = `http://127.0.0.1:${port}/mcp`;
  authorization = await startAuthorizationServer(await freePort(), resource);
  const secretFile = join(mkdtempSync(join(tmpdir(), "custody-page-client-")), "secret");
  writeFileSync(secretFile, `${PAGE_CLIENT_SECRET}\n`, { mode: 0o600 });
  const oauth = { issuer: authorization.issuer, resource, confirmClient: { clientId: PAGE_CLIENT, secretFile, secret: null } };
  http = await startHttpServer(
    workspace.context.ctx,
    { port, host: "127.0.0.1", token: null, sessionIdleSeconds: 1800, maxSessions: 100, replicaId: null, publicOrigin: new URL(resource).origin, oauth },
    () => {},
  );
}, 60_000);

afterAll(async () => {
  await http?.close();
  await authorization?.stop();
});

/** Alice's model (an MCP client that shows no form, her token): the dry run, then the same call with its reference, which answers the page's link. */
async function waitingWrite(
  note: string,
  at = { resource, authorization, revision: "2025-11-25" as "2025-11-25" | "2026-07-28" },
): Promise<{ model: TeamSession; link: string; reference: string; again: () => ReturnType<TeamSession["call"]> }> {
  const model = await openTeamSession(at.resource, await at.authorization.personToken("alice", ["custody:read", "custody:write"]), at.revision);
  const args = await sendArgs(note);
  const dry = await model.call("create_transaction", args);
  expect(dry.token, dry.text).toBeUndefined();
  const reference = dry.structured.reference as string;
  const again = () => model.call("create_transaction", { ...args, reference });
  const waiting = await again();
  expect(waiting.structured.status, waiting.text).toBe("waiting_for_person");
  const link = /on the confirmation page (\S+), signing in there/.exec(waiting.text)?.[1] as string;
  expect(link, waiting.text).toMatch(new RegExp(`^${new URL(at.resource).origin}/confirm/p1\\.[^?]+$`));
  return { model, link, reference, again };
}

/** A browser of its own (its own cookies, at the issuer too) on the page's link: asked to sign in. */
async function openSignedOut(link: string, shot: string): Promise<{ browserContext: BrowserContext; page: Page }> {
  const browserContext = await workspace.browser.newContext({ viewport: { width: 1000, height: 900 } });
  const page = await browserContext.newPage();
  expect((await page.goto(link))?.status()).toBe(200);
  await page.getByRole("heading", { name: "Sign in to confirm" }).waitFor();
  expect(await page.locator("form").count()).toBe(0);
  expect(await page.content()).not.toContain("Amount:");
  await page.screenshot({ path: join(workspace.shots, `${shot}-asked.png`), fullPage: true });
  return { browserContext, page };
}

/** The person signs in at the issuer as a person would: the page's Sign in link, the issuer's login form, its consent form. */
async function signInAt(page: Page, account: string, shot: string): Promise<void> {
  await page.getByRole("link", { name: "Sign in" }).click();
  await page.locator('input[name="login"]').waitFor();
  await page.screenshot({ path: join(workspace.shots, `${shot}-issuer-login.png`), fullPage: true });
  await page.locator('input[name="login"]').fill(account);
  await page.locator('input[name="password"]').fill((ACCOUNTS[account] as { password: string }).password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByRole("button", { name: "Allow" }).click();
  await page.locator("h1").filter({ hasNotText: "Test issuer" }).waitFor();
  await page.screenshot({ path: join(workspace.shots, `${shot}-back.png`), fullPage: true });
}

/** Alice signed in on her page: the confirmation with its buttons, and her session cookie. */
async function aliceOnHerPage(link: string, shot: string): Promise<{ browserContext: BrowserContext; page: Page; session: string }> {
  const opened = await openSignedOut(link, shot);
  await signInAt(opened.page, "alice", shot);
  expect(await opened.page.locator("h1").innerText()).toBe("Signed in");
  const cookie = (await opened.browserContext.cookies()).find((entry) => entry.name === SESSION_COOKIE);
  expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Strict", path: "/confirm" });
  await opened.page.getByRole("link", { name: "Continue to the confirmation" }).click();
  await opened.page.getByRole("button", { name: "Confirm" }).waitFor();
  await opened.page.screenshot({ path: join(workspace.shots, `${shot}-confirm.png`), fullPage: true });
  return { ...opened, session: cookie?.value ?? "" };
}

/**
 * Alice's client (a client that declares only URL elicitation, her token, connected to `at.resource`): each link it is asked to
 * show her, she signs in on and confirms. The links it was asked to show.
 */
async function aliceConfirmsEachLink(client: Client, at: { resource: string; authorization: AuthorizationServer }, shot: string): Promise<string[]> {
  const shown: string[] = [];
  client.setRequestHandler("elicitation/create", async (request) => {
    const url = (request.params as { url?: string }).url ?? "";
    shown.push(url);
    const { browserContext, page } = await aliceOnHerPage(url, shot);
    try {
      await page.getByRole("button", { name: "Confirm" }).click();
      await page.getByRole("heading", { name: "Submitted" }).waitFor();
    } finally {
      await browserContext.close();
    }
    return { action: "accept" };
  });
  const token = await at.authorization.personToken("alice", ["custody:read", "custody:write"]);
  await client.connect(new StreamableHTTPClientTransport(new URL(at.resource), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
  return shown;
}

function rawPost(link: string, fields: Record<string, string>, headers: Record<string, string>): ReturnType<typeof pageRequest> {
  return pageRequest("POST", link, new URLSearchParams(fields).toString(), { "Content-Type": "application/x-www-form-urlencoded", ...headers });
}

describe("the confirmation page on a team server", () => {
  it("the person signs in at the issuer and confirms: one POST; a second confirm sends nothing more; the model reads the outcome", async () => {
    const { model, link, reference, again } = await waitingWrite("signed-in yes");
    const { browserContext, page, session } = await aliceOnHerPage(link, "yes");
    try {
      const shown = await page.locator("#write").innerText();
      for (const label of ["Amount: ", "Fee: ", "Request: POST", "Expires: "]) expect(shown).toContain(label);
      const secret = (await page.locator('input[name="secret"]').getAttribute("value")) ?? "";
      const question = (await page.locator('input[name="question"]').getAttribute("value")) ?? "";
      const before = sends();
      await page.getByRole("button", { name: "Confirm" }).click();
      await page.getByRole("heading", { name: "Submitted" }).waitFor();
      await page.screenshot({ path: join(workspace.shots, "yes-submitted.png"), fullPage: true });
      expect(sends()).toBe(before + 1);
      const outcome = await again();
      expect(outcome.structured.status, outcome.text).toBe("submitted");
      expect([outcome.structured.transaction_id]).toEqual(await transactionsWithLabel(workspace.emulator, reference));
      // The audit names who confirmed (the signed-in person, through the page's client) and where.
      const records = readFileSync(workspace.context.auditPath, "utf8")
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line) as { event: string; person?: { subject?: string; client?: string }; details?: { through?: string } });
      expect(
        records.filter((record) => record.event === "confirmed").map((record) => [record.person?.subject, record.person?.client, record.details?.through]),
      ).toEqual([["alice", PAGE_CLIENT, "page"]]);
      const replay = await rawPost(link, { secret, question, decision: "confirm" }, { Origin: new URL(link).origin, Cookie: `${SESSION_COOKIE}=${session}` });
      expect(replay.status).toBe(410);
      expect(sends()).toBe(before + 1);
    } finally {
      await browserContext.close();
      await model.close();
    }
  });

  it("asks for the sign-in without a session: the write is not shown, a post is refused, a callback this browser did not start is refused", async () => {
    const { model, link, again } = await waitingWrite("signed-out");
    try {
      const asked = await pageRequest("GET", link);
      expect(asked.status).toBe(200);
      expect(asked.text).toContain("Sign in to confirm");
      expect(asked.text).not.toContain("Amount:");
      expect(asked.text).not.toContain('name="secret"');
      // The key a single user's link carries opens nothing here either.
      expect((await pageRequest("GET", `${link}?key=anything`)).text).not.toContain('name="secret"');
      const before = sends();
      expect((await rawPost(link, { secret: "x", question: "x", decision: "confirm" }, { Origin: new URL(link).origin })).status).toBe(403);
      const callback = await pageRequest("GET", `${new URL(resource).origin}/confirm/callback?code=stolen&state=guessed`);
      expect(callback.status).toBe(400);
      expect(callback.headers["set-cookie"]?.some((line) => line.startsWith(`${SESSION_COOKIE}=`)) ?? false).toBe(false);
      // A browser that did start a sign-in, brought back with another state (another's code): refused, no session.
      const { browserContext, page } = await openSignedOut(link, "other-state");
      try {
        await page.getByRole("link", { name: "Sign in" }).click();
        await page.locator('input[name="login"]').waitFor();
        expect((await page.goto(`${new URL(resource).origin}/confirm/callback?code=stolen&state=${"A".repeat(22)}`))?.status()).toBe(400);
        expect(await page.locator("h1").innerText()).toBe("Sign-in not recognised");
        expect((await browserContext.cookies()).map((entry) => entry.name)).not.toContain(SESSION_COOKIE);
      } finally {
        await browserContext.close();
      }
      expect(sends()).toBe(before);
      expect((await again()).structured.status).toBe("waiting_for_person");
    } finally {
      await model.close();
    }
  });

  it("refuses another person: one who signs in on the page gets no session, one with a session of their own is not shown it nor heard", async () => {
    const { model, link, again } = await waitingWrite("other person");
    const { browserContext, page } = await openSignedOut(link, "bob");
    try {
      await signInAt(page, "bob", "bob");
      expect(await page.locator("h1").innerText()).toBe("Refused");
      expect(await page.locator("body").innerText()).toContain("Bob Stone");
      expect((await browserContext.cookies()).some((entry) => entry.name === SESSION_COOKIE)).toBe(false);
      await page.goto(link);
      await page.getByRole("heading", { name: "Sign in to confirm" }).waitFor();
      // Bob's own session (as the page would give him on his own page): Alice's write stays hers.
      const bob = { subject: "bob", name: "Bob Stone", groups: ["treasury-viewers"], roles: [] };
      const bobs = (sessionCookie(workspace.context.ctx.tokens, workspace.context.ctx.policy, bob, Date.now(), false) as string).split(";")[0] as string;
      const before = sends();
      const shown = await pageRequest("GET", link, "", { Cookie: bobs });
      expect(shown.status).toBe(403);
      expect(shown.text).not.toContain("Amount:");
      const secret = new URL(link).pathname; // anything: the session is refused before the secret is read
      expect((await rawPost(link, { secret, question: "x", decision: "confirm" }, { Origin: new URL(link).origin, Cookie: bobs })).status).toBe(403);
      expect(sends()).toBe(before);
      expect((await again()).structured.status).toBe("waiting_for_person");
    } finally {
      await browserContext.close();
      await model.close();
    }
  });

  it("refuses a tampered session, a post without the page's secret or from another origin; the person's no sends nothing", async () => {
    const { model, link, reference, again } = await waitingWrite("signed-in no");
    const { browserContext, page, session } = await aliceOnHerPage(link, "no");
    try {
      const secret = (await page.locator('input[name="secret"]').getAttribute("value")) ?? "";
      const question = (await page.locator('input[name="question"]').getAttribute("value")) ?? "";
      const origin = new URL(link).origin;
      const fields = { secret, question, decision: "confirm" };
      const cookie = `${SESSION_COOKIE}=${session}`;
      const [body = "", mac = ""] = session.split(".");
      const claims = JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as { exp: number };
      const before = sends();
      for (const tampered of [
        `${body}.${mac.slice(0, -2)}AA`,
        `${Buffer.from(JSON.stringify({ ...claims, exp: claims.exp + 3_600_000 })).toString("base64url")}.${mac}`,
        body,
      ]) {
        expect((await rawPost(link, fields, { Origin: origin, Cookie: `${SESSION_COOKIE}=${tampered}` })).status).toBe(403);
        expect((await pageRequest("GET", link, "", { Cookie: `${SESSION_COOKIE}=${tampered}` })).text).toContain("Sign in to confirm");
      }
      expect((await rawPost(link, { ...fields, secret: "" }, { Origin: origin, Cookie: cookie })).status).toBe(403);
      expect((await rawPost(link, fields, { Origin: "http://evil.example", Cookie: cookie })).status).toBe(403);
      expect((await rawPost(link, fields, { Cookie: cookie })).status).toBe(403);
      expect(sends()).toBe(before);
      await page.getByRole("button", { name: "Decline" }).click();
      await page.getByRole("heading", { name: "Declined" }).waitFor();
      expect(sends()).toBe(before);
      expect((await again()).structured.status).toBe("declined");
      expect(await transactionsWithLabel(workspace.emulator, reference)).toEqual([]);
    } finally {
      await browserContext.close();
      await model.close();
    }
  });
});

describe("pages of other origins in the signed-in person's browser", () => {
  it("cannot decide her write: their form post and fetch (carrying the page's own secret) are refused, and the page will not be framed", async () => {
    const { model, link, again } = await waitingWrite("other origins");
    const { browserContext, page } = await aliceOnHerPage(link, "other-origins");
    const secret = (await page.locator('input[name="secret"]').getAttribute("value")) ?? "";
    const question = (await page.locator('input[name="question"]').getAttribute("value")) ?? "";
    const fields = new URLSearchParams({ secret, question, decision: "confirm" }).toString();
    const attacks: Record<string, string> = {
      form:
        `<form id="f" method="post" action="${link}"><input name="secret" value="${secret}"><input name="question" value="${question}">` +
        '<input name="decision" value="confirm"></form><script>document.getElementById("f").submit()</script>',
      fetch:
        `<script>fetch(${JSON.stringify(link)}, { method: "POST", mode: "no-cors", credentials: "include", ` +
        `headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: ${JSON.stringify(fields)} })</script>`,
      frame: `<iframe src="${link}" width="800" height="600"></iframe>`,
    };
    const attacker = createServer((req, res) => {
      res.writeHead(200, { "Content-Type": "text/html" });
      res.end(attacks[(req.url ?? "/").slice(1)] ?? "");
    });
    const attackerPort = await freePort();
    await new Promise<void>((resolve) => attacker.listen(attackerPort, "127.0.0.1", resolve));
    try {
      const before = sends();
      // The same site on another port (her Strict session cookie is sent: the Origin refuses it), and another site (localhost).
      for (const host of ["127.0.0.1", "localhost"]) {
        for (const kind of ["form", "fetch"]) {
          const other = await browserContext.newPage();
          const answered = other.waitForResponse((response) => response.url() === link && response.request().method() === "POST");
          await other.goto(`http://${host}:${attackerPort}/${kind}`);
          expect((await answered).status(), `${kind} from ${host}`).toBe(403);
          await other.close();
        }
        const framing = await browserContext.newPage();
        const framed = framing.waitForResponse((response) => response.url() === link);
        await framing.goto(`http://${host}:${attackerPort}/frame`);
        expect((await framed).headers()["x-frame-options"]).toBe("DENY");
        // Chromium shows its own error page in the frame, never the page's Confirm.
        expect(await framing.frames()[1]?.locator("button").count()).toBe(0);
        await framing.close();
      }
      expect(sends()).toBe(before);
      expect((await again()).structured.status).toBe("waiting_for_person");
    } finally {
      attacker.close();
      await browserContext.close();
      await model.close();
    }
  }, 60_000);
});

describe("an expired dry run on a team server's page", () => {
  it("sends nothing when it expires while the signed-in person has the page open; the model reads expired", async () => {
    const { model, link, reference, again } = await waitingWrite("signed-in expired");
    const { browserContext, page } = await aliceOnHerPage(link, "expired");
    try {
      const expiresAt = Date.parse((await again()).structured.expires_at as string);
      workspace.context.clock.advance(expiresAt - workspace.context.clock.now().getTime() + 1);
      const before = sends();
      await page.getByRole("button", { name: "Confirm" }).click();
      await page.locator("h1").waitFor();
      expect(await page.locator("h1").innerText()).not.toBe("Submitted");
      await page.screenshot({ path: join(workspace.shots, "expired-after.png"), fullPage: true });
      expect(sends()).toBe(before);
      expect((await again()).structured.status).toBe("expired");
      expect(await transactionsWithLabel(workspace.emulator, reference)).toEqual([]);
    } finally {
      await browserContext.close();
      await model.close();
    }
  });
});

describe("a client that declares only URL elicitation, on a team server", () => {
  it("is given the page's link (no key) for the person, who signs in there and confirms; the retried call answers submitted, sent once", async () => {
    const client = new Client({ name: "url-only", version: "0" }, { capabilities: { elicitation: { url: {} } } });
    const shown = await aliceConfirmsEachLink(client, { resource, authorization }, "url-elicitation");
    try {
      const args = await sendArgs("url elicitation");
      const dry = await call(client, "create_transaction", args);
      const before = sends();
      const outcome = await call(client, "create_transaction", { ...args, reference: dry.structured.reference as string });
      expect(outcome.structured.status, outcome.text).toBe("submitted");
      expect(sends()).toBe(before + 1);
      expect(shown).toHaveLength(1);
      expect(shown[0]).toMatch(new RegExp(`^${new URL(resource).origin}/confirm/p1\\.[^?]+$`));
    } finally {
      await client.close();
    }
  }, 60_000);
});

describe("the sign-in behind TLS (an https public URL)", () => {
  it("sends the person to the issuer with PKCE S256 and its state, both kept in a Secure, HttpOnly, Lax cookie of the page's path", async () => {
    const publicUrl = "https://custody.example/mcp";
    const issuer = await startAuthorizationServer(await freePort(), publicUrl);
    const team = workspace.contextWith({ policy: { confirmation: "person" } });
    const oauth = { issuer: issuer.issuer, resource: publicUrl, confirmClient: { clientId: PAGE_CLIENT, secretFile: null, secret: PAGE_CLIENT_SECRET } };
    const server = await startHttpServer(
      team.ctx,
      { port: 0, host: "127.0.0.1", token: null, sessionIdleSeconds: 1800, maxSessions: 10, replicaId: null, publicOrigin: "https://custody.example", oauth },
      () => {},
    );
    try {
      const id = pageId(team.ctx.tokens, { reference: "cw-0123456789abcdef0123", tool: "create_transaction", operator: team.ctx.operator, person: "alice" });
      const started = await pageRequest("GET", `http://127.0.0.1:${server.port}/confirm/sign-in/${id}`, "", { Host: "custody.example" });
      expect(started.status, started.text).toBe(303);
      const cookie = started.headers["set-cookie"]?.[0] ?? "";
      expect(cookie.split("; ").slice(1).sort()).toEqual(["HttpOnly", "Max-Age=600", "Path=/confirm", "SameSite=Lax", "Secure"]);
      const flow = JSON.parse(Buffer.from(cookie.split("=")[1]?.split(".")[0] ?? "", "base64url").toString("utf8")) as {
        verifier: string;
        state: string;
        page: string;
      };
      expect(flow.page).toBe(id);
      const location = new URL(started.headers.location ?? "");
      expect(location.origin).toBe(issuer.issuer);
      expect(Object.fromEntries(location.searchParams)).toEqual({
        response_type: "code",
        client_id: PAGE_CLIENT,
        redirect_uri: "https://custody.example/confirm/callback",
        scope: "openid custody:write",
        resource: publicUrl,
        state: flow.state,
        code_challenge: createHash("sha256").update(flow.verifier).digest("base64url"),
        code_challenge_method: "S256",
      });
      // The issuer takes the request (its client, redirect URI and PKCE): it answers with its sign-in, not an error.
      const answer = await fetch(location, { redirect: "manual" });
      expect(answer.status).toBe(303);
      expect(answer.headers.get("location")).toMatch(/^\/interaction\//);
    } finally {
      await server.close();
      await team.ctx.pages.close();
      await issuer.stop();
    }
  });
});

/** Two replicas of a team server (the store and the token secret shared) behind a balancer that sends each request to the other one. */
async function alternatingReplicas(confirmation: "person" | "token") {
  const proxyPort = await freePort();
  const publicUrl = `http://127.0.0.1:${proxyPort}/mcp`;
  const issuer = await startAuthorizationServer(await freePort(), publicUrl);
  // What replicas share: the store and the token secret; each has its own pages, sign-in and issuer discovery.
  const shared = { policy: { confirmation }, store: workspace.context.ctx.store, tokenSecret: randomBytes(32) };
  const replicas = [workspace.contextWith(shared), workspace.contextWith(shared)];
  const oauth = { issuer: issuer.issuer, resource: publicUrl, confirmClient: { clientId: PAGE_CLIENT, secretFile: null, secret: PAGE_CLIENT_SECRET } };
  const servers = await Promise.all(
    replicas.map((replica) =>
      startHttpServer(
        replica.ctx,
        {
          port: 0,
          host: "127.0.0.1",
          token: null,
          sessionIdleSeconds: 1800,
          maxSessions: 10,
          replicaId: null,
          publicOrigin: new URL(publicUrl).origin,
          oauth,
        },
        () => {},
      ),
    ),
  );
  const proxy = await startAlternatingProxy(
    servers.map((server) => server.port),
    proxyPort,
  );
  return {
    publicUrl,
    issuer,
    proxy,
    async close() {
      await proxy.close();
      for (const server of servers) await server.close();
      for (const replica of replicas) await replica.ctx.pages.close();
      await issuer.stop();
    },
  };
}

describe("replicas behind a balancer that sends each request to the other one", () => {
  it("a sign-in started on one replica finishes on the other, and the person's yes, taken by either, sends once", async () => {
    const { publicUrl, issuer, proxy, close } = await alternatingReplicas("person");
    const { model, link, again } = await waitingWrite("replicas yes", { resource: publicUrl, authorization: issuer, revision: "2026-07-28" });
    const { browserContext, page } = await openSignedOut(link, "replicas");
    try {
      await signInAt(page, "alice", "replicas");
      expect(await page.locator("h1").innerText()).toBe("Signed in");
      await page.getByRole("link", { name: "Continue to the confirmation" }).click();
      const before = sends();
      await page.getByRole("button", { name: "Confirm" }).click();
      await page.getByRole("heading", { name: "Submitted" }).waitFor();
      expect(sends()).toBe(before + 1);
      expect((await again()).structured.status).toBe("submitted");
      const upstreamOf = (path: string) => proxy.answered.find((entry) => entry.path.startsWith(path))?.upstream;
      expect(upstreamOf("/confirm/callback")).not.toBe(upstreamOf("/confirm/sign-in/"));
      const decided = proxy.answered.filter((entry) => entry.path.startsWith("/confirm/p1."));
      expect(new Set(decided.map((entry) => entry.upstream)).size).toBe(2);
    } finally {
      await browserContext.close();
      await model.close();
      await close();
    }
  });

  it("in token mode, a 2026-07-28 client declaring only URL elicitation sends the person to her page: she signs in and confirms; sent once", async () => {
    const { publicUrl, issuer, close } = await alternatingReplicas("token");
    const client = modernClient({ elicitation: { url: {} } });
    const shown = await aliceConfirmsEachLink(client, { resource: publicUrl, authorization: issuer }, "token-url-elicitation");
    try {
      const args = await sendArgs("token url elicitation");
      const dry = await call(client, "create_transaction", args);
      expect(dry.token, dry.text).toEqual(expect.any(String));
      const before = sends();
      const outcome = await call(client, "create_transaction", { ...args, confirmation_token: dry.token });
      expect(outcome.structured.status, outcome.text).toBe("submitted");
      expect(sends()).toBe(before + 1);
      expect(shown).toHaveLength(1);
      expect(shown[0]).toMatch(new RegExp(`^${new URL(publicUrl).origin}/confirm/p1\\.[^?]+$`));
      const again = await call(client, "create_transaction", { ...args, confirmation_token: dry.token });
      expect([again.structured.status, again.structured.reason], again.text).toEqual(["refused", "reused"]);
      expect(sends()).toBe(before + 1);
    } finally {
      await client.close();
      await close();
    }
  }, 90_000);
});
