import { readFileSync } from "node:fs";
import type { ElicitResult } from "@modelcontextprotocol/client";
import { parseDecimal } from "@custody/shared";
import { describe, expect, it } from "vitest";
import { personNonce } from "../src/guard/person-intent.js";
import { accountNamed, DEMO, transactionsWithLabel } from "./harness/demo-workspace.js";
import { call, connectSession, testContext } from "./harness/mcp-harness.js";
import { recordedWorkspace } from "./harness/recorded-workspace.js";

// Person mode through real MCP clients on the emulator: the model is handed a reference and nothing
// that confirms; a client that shows forms asks the person, one that cannot is told the write waits
// for them, and the same call later answers what became of it.

const TTL_MS = 60_000;
const workspace = recordedWorkspace({ context: { tokenTtlMs: TTL_MS } });
const { sendArgs } = workspace;

const ACCEPT: ElicitResult = { action: "accept", content: { confirm: true } };
const DECLINE: ElicitResult = { action: "decline" };
const posts = () => workspace.recorder.requests.filter((request) => request.method === "POST").length;

/** A session of the server: asking the person with `answer` when given, else a client that shows no form. */
async function session(answer?: ElicitResult) {
  const asked: string[] = [];
  const opened = await connectSession(workspace.context.ctx, answer === undefined ? undefined : (message) => (asked.push(message), answer));
  return { ...opened, asked };
}

describe("person mode", () => {
  it("hands the model a reference and nothing that confirms: no token in the text, the structure or the store's nonce", async () => {
    const model = await session();
    try {
      const args = await sendArgs("no token");
      const dry = await call(model.client, "create_transaction", args);
      expect(dry.structured.status, dry.text).toBe("dry_run");
      expect(dry.token).toBeUndefined();
      const reference = dry.structured.reference as string;
      expect(dry.text).toContain(`reference "${reference}"`);
      const nonce = personNonce(workspace.context.ctx.tokens, reference, {
        tool: "create_transaction",
        operator: workspace.context.ctx.operator,
        person: null,
      });
      const everything = JSON.stringify(dry);
      expect(everything).not.toMatch(/v2\.[0-9a-f]{32}\./);
      expect(everything).not.toContain(nonce);
      expect((await workspace.context.ctx.store.lookUpIntent(nonce)).outcome).toBe("open");
    } finally {
      await model.close();
    }
  });

  it("asks the person in a client that shows forms: yes sends once, a second yes sends nothing more", async () => {
    const person = await session(ACCEPT);
    try {
      const args = await sendArgs("yes once");
      const dry = await call(person.client, "create_transaction", args);
      const reference = dry.structured.reference as string;
      expect(person.asked).toEqual([]);
      const confirmed = await call(person.client, "create_transaction", { ...args, reference });
      expect(confirmed.structured.status, confirmed.text).toBe("submitted");
      expect(person.asked).toHaveLength(1);
      expect(person.asked[0]).toContain("Submit it?");
      const again = await call(person.client, "create_transaction", { ...args, reference });
      expect(again.structured.status, again.text).toBe("refused");
      expect(again.structured.reason).toBe("reused");
      expect(again.text).toMatch(/^REFUSED: reference: already used/);
      expect(await transactionsWithLabel(workspace.emulator, reference)).toHaveLength(1);
      const records = readFileSync(workspace.context.auditPath, "utf8")
        .split("\n")
        .filter((line) => line.includes(reference) && line.includes('"event":"confirmed"'));
      expect(records.map((line) => (JSON.parse(line) as { details: { through: string } }).details.through)).toEqual(["form"]);
    } finally {
      await person.close();
    }
  });

  it("sends nothing when the person says no, and a client that cannot ask then reads that it was declined", async () => {
    const person = await session(DECLINE);
    const model = await session();
    try {
      const args = await sendArgs("no");
      const dry = await call(model.client, "create_transaction", args);
      const reference = dry.structured.reference as string;
      const before = posts();
      const declined = await call(person.client, "create_transaction", { ...args, reference });
      expect(declined.structured.status, declined.text).toBe("declined");
      expect((await call(model.client, "create_transaction", { ...args, reference })).structured.status).toBe("declined");
      expect(posts()).toBe(before);
      expect(await transactionsWithLabel(workspace.emulator, reference)).toEqual([]);
    } finally {
      await person.close();
      await model.close();
    }
  });

  it("tells a client that cannot ask that the write waits for the person, then what became of it, on any session, its dry run forgotten or not", async () => {
    const model = await session();
    const person = await session(ACCEPT);
    try {
      const args = await sendArgs("waits");
      const dry = await call(model.client, "create_transaction", args);
      const reference = dry.structured.reference as string;
      const waiting = await call(model.client, "create_transaction", { ...args, reference });
      expect(waiting.structured.status, waiting.text).toBe("waiting_for_person");
      expect(waiting.structured.expires_at).toBe(dry.structured.expires_at);
      // The other places the person confirms: a client that shows forms, and (a single user on the file store) VS Code's view.
      expect(waiting.text).toContain("in an MCP client that shows forms");
      expect(waiting.text).toContain("or in VS Code's Custody: Waiting for You view");
      expect(await transactionsWithLabel(workspace.emulator, reference)).toEqual([]);
      expect((await call(person.client, "create_transaction", { ...args, reference })).structured.status).toBe("submitted");
      const sent = (await transactionsWithLabel(workspace.emulator, reference))[0];
      for (const later of [0, 3 * TTL_MS]) {
        // The second time past the dry run's expiry and the minute its entry is kept after it: the store has forgotten the
        // intent, not the write (answered 'expired: nothing was sent' before).
        workspace.context.clock.advance(later);
        const outcome = await call(model.client, "create_transaction", { ...args, reference });
        expect(outcome.structured.status, outcome.text).toBe("submitted");
        expect(outcome.structured.transaction_id).toBe(sent);
      }
    } finally {
      await model.close();
      await person.close();
    }
  });

  it("refuses a call whose arguments ask for another write than its reference's dry run, naming the field; the same write spelled otherwise waits", async () => {
    const model = await session();
    try {
      const args = await sendArgs("other arguments");
      const dry = await call(model.client, "create_transaction", args);
      const reference = dry.structured.reference as string;
      const before = posts();
      const accountId = (await accountNamed(workspace.emulator, DEMO.solTreasury)).id;
      const other = await call(model.client, "create_transaction", { ...args, amount: `${args.amount}1`, reference });
      expect(other.structured.status, other.text).toBe("refused");
      expect(other.text).toMatch(/^REFUSED: amount: differs from the dry run this reference names/);
      const elsewhere = await call(model.client, "create_transaction", { ...args, note: "another note", reference });
      expect(elsewhere.text).toMatch(/^REFUSED: note: differs/);
      // The same write: the amount in base units, the account by its id.
      const lamports = parseDecimal(args.amount, 9).toString();
      const same = await call(model.client, "create_transaction", { ...args, account: `#${accountId}`, amount: lamports, unit: "lamport", reference });
      expect(same.structured.status, same.text).toBe("waiting_for_person");
      expect(posts()).toBe(before);
    } finally {
      await model.close();
    }
  });

  it("holds a call with the reference to its dry run once the person confirmed it and once the store forgot it: other arguments are refused", async () => {
    const model = await session();
    const person = await session(ACCEPT);
    try {
      const args = await sendArgs("other arguments after");
      const dry = await call(model.client, "create_transaction", args);
      const reference = dry.structured.reference as string;
      expect((await call(person.client, "create_transaction", { ...args, reference })).structured.status).toBe("submitted");
      const sent = (await transactionsWithLabel(workspace.emulator, reference))[0];
      const lamports = parseDecimal(args.amount, 9).toString();
      for (const later of [0, 3 * TTL_MS]) {
        // Used, then (past its expiry and the minute its entry is kept) forgotten: its write's trace keeps what it asked for.
        workspace.context.clock.advance(later);
        const other = await call(model.client, "create_transaction", { ...args, amount: `${args.amount}1`, reference });
        expect(other.structured.status, other.text).toBe("refused");
        expect(other.text).toMatch(/^REFUSED: amount: differs from the dry run this reference names/);
        expect(other.text).not.toContain(`transaction ${sent}`);
        const same = await call(model.client, "create_transaction", { ...args, amount: lamports, unit: "lamport", reference });
        expect(same.structured, same.text).toMatchObject({ status: "submitted", transaction_id: sent });
      }
    } finally {
      await model.close();
      await person.close();
    }
  });

  it("takes an Ethereum recipient in another letter case for the dry run's own, as the intent compares it", async () => {
    const model = await session();
    try {
      const address = (await accountNamed(workspace.emulator, DEMO.ethOps)).address;
      const args = { account: DEMO.ethStaking, recipient: address, amount: "0.0071", unit: "ETH" };
      const dry = await call(model.client, "create_transaction", args);
      expect(dry.structured.status, dry.text).toBe("dry_run");
      const reference = dry.structured.reference as string;
      const shouted = `0x${address.slice(2).toUpperCase()}`;
      expect(shouted).not.toBe(address);
      const waiting = await call(model.client, "create_transaction", { ...args, recipient: ` ${shouted}`, reference });
      expect(waiting.structured.status, waiting.text).toBe("waiting_for_person");
      const other = await call(model.client, "create_transaction", { ...args, recipient: `0x${"1".repeat(40)}`, reference });
      expect(other.text).toMatch(/^REFUSED: recipient: differs/);
    } finally {
      await model.close();
    }
  });

  it(
    "lists the write waiting for the person in list_pending_approvals (reference, tool, " + "what moves, expiry), never what confirms it, until it is decided",
    async () => {
      const model = await session();
      const person = await session(ACCEPT);
      try {
        const args = await sendArgs("listed");
        const dry = await call(model.client, "create_transaction", args);
        const reference = dry.structured.reference as string;
        const listed = await call(model.client, "list_pending_approvals", {});
        const waiting = listed.structured.waiting_for_you as { reference: string; tool: string; moves: string; expires_at: string }[];
        expect(waiting.find((write) => write.reference === reference)).toEqual({
          reference,
          tool: "create_transaction",
          moves: expect.stringMatching(new RegExp(`^Send funds from account \\d+: ${args.amount} SOL .*; account \\d+ is named “${DEMO.solTreasury}”\\.$`)),
          expires_at: dry.structured.expires_at,
        });
        expect(listed.text).toMatch(
          new RegExp(
            `${reference} create_transaction: <untrusted field="moves">Send funds from account \\d+: ${args.amount} SOL .*` +
              `; account \\d+ is named “${DEMO.solTreasury}”\\.</untrusted>; expires \\S+ \\(in `,
          ),
        );
        const nonce = personNonce(workspace.context.ctx.tokens, reference, {
          tool: "create_transaction",
          operator: workspace.context.ctx.operator,
          person: null,
        });
        expect(JSON.stringify(listed)).not.toContain(nonce);
        expect((await call(person.client, "create_transaction", { ...args, reference })).structured.status).toBe("submitted");
        const after = await call(model.client, "list_pending_approvals", {});
        expect((after.structured.waiting_for_you as { reference: string }[]).map((write) => write.reference)).not.toContain(reference);
      } finally {
        await model.close();
        await person.close();
      }
    },
  );

  it("sends nothing for an expired dry run, and says it expired", async () => {
    const model = await session();
    const person = await session(ACCEPT);
    try {
      const args = await sendArgs("expired");
      const dry = await call(model.client, "create_transaction", args);
      const reference = dry.structured.reference as string;
      workspace.context.clock.advance(TTL_MS + 1);
      const before = posts();
      expect((await call(model.client, "create_transaction", { ...args, reference })).structured.status).toBe("expired");
      const late = await call(person.client, "create_transaction", { ...args, reference });
      expect(late.structured.status, late.text).toBe("refused");
      expect(late.structured.reason).toBe("expired");
      expect(person.asked).toEqual([]);
      expect(posts()).toBe(before);
    } finally {
      await model.close();
      await person.close();
    }
  });

  it("refuses a confirmation token in person mode and a reference in token mode, naming the setting", async () => {
    const model = await session();
    try {
      const args = await sendArgs("misplaced");
      const refused = await call(model.client, "create_transaction", { ...args, confirmation_token: `v2.${"0".repeat(32)}.${"A".repeat(43)}` });
      expect(refused.structured).toMatchObject({ status: "refused", reason: "confirmation_mode" });
      expect(refused.text).toContain("confirmation: person");
    } finally {
      await model.close();
    }
    const tokenMode = testContext(workspace.emulator);
    const plain = await connectSession(tokenMode.ctx);
    try {
      const refused = await call(plain.client, "create_transaction", { ...(await sendArgs("token mode")), reference: "cw-00000000000000000000" });
      expect(refused.structured).toMatchObject({ status: "refused", reason: "confirmation_mode" });
    } finally {
      await plain.close();
    }
  });

  it("refuses a reference for another person's, tool's or made-up dry run as unknown, sending nothing", async () => {
    const model = await session();
    try {
      const args = await sendArgs("other");
      const before = posts();
      const made = await call(model.client, "create_transaction", { ...args, reference: "cw-0123456789abcdef0123" });
      expect(made.structured.status, made.text).toBe("expired");
      const malformed = await call(model.client, "create_transaction", { ...args, reference: "v2.whatever" });
      expect(malformed.structured).toMatchObject({ status: "refused", reason: "reference" });
      expect(posts()).toBe(before);
    } finally {
      await model.close();
    }
  });
});

describe("a role that requires the person", () => {
  it(
    "gives its people no token and no page link (the page cannot sign them in without " + "--confirm-client-id); another role's people keep the token",
    async () => {
      const roles = [
        { name: "careful", when: { groups: ["careful"] }, confirmation: "person" as const },
        { name: "plain", when: { groups: ["plain"] } },
      ];
      const team = workspace.contextWith({ policy: { roles } });
      const careful = await connectSession(team.ctx, undefined, { subject: "carla", groups: ["careful"], roles: [] });
      const plain = await connectSession(team.ctx, undefined, { subject: "paul", groups: ["plain"], roles: [] });
      try {
        const args = await sendArgs("role");
        const hers = await call(careful.client, "create_transaction", args);
        expect(hers.structured.status, hers.text).toBe("dry_run");
        expect(hers.token).toBeUndefined();
        const waiting = await call(careful.client, "create_transaction", { ...args, reference: hers.structured.reference as string });
        expect(waiting.structured.status, waiting.text).toBe("waiting_for_person");
        expect(waiting.text).not.toContain("/confirm/");
        // The extension signs no one in: a signed-in person's write is not listed there.
        expect(waiting.text).not.toContain("Waiting for You");
        const his = await call(plain.client, "create_transaction", await sendArgs("role plain"));
        expect(his.token, his.text).toEqual(expect.any(String));
      } finally {
        await careful.close();
        await plain.close();
      }
    },
  );
});

describe("people signed in", () => {
  it("tells only the person a write was made for what became of it: another's call with their reference learns nothing", async () => {
    const alice = await connectSession(workspace.context.ctx, () => ACCEPT, { subject: "alice", groups: [], roles: [] });
    const bob = await connectSession(workspace.context.ctx, undefined, { subject: "bob", groups: [], roles: [] });
    try {
      const args = await sendArgs("hers alone");
      const dry = await call(alice.client, "create_transaction", args);
      const reference = dry.structured.reference as string;
      const confirmed = await call(alice.client, "create_transaction", { ...args, reference });
      expect(confirmed.structured.status, confirmed.text).toBe("submitted");
      const [transaction] = await transactionsWithLabel(workspace.emulator, reference);
      // Her model (a client that cannot ask) reads it, before and after the store forgot the dry run (as above); Bob, who has
      // the reference from the transaction's notes (anyone who reads the workspace sees them), reads nothing of it.
      const herModel = await connectSession(workspace.context.ctx, undefined, { subject: "alice", groups: [], roles: [] });
      try {
        for (const later of [0, 3 * TTL_MS]) {
          workspace.context.clock.advance(later);
          const hers = await call(herModel.client, "create_transaction", { ...args, reference });
          expect(hers.structured, hers.text).toMatchObject({ status: "submitted", transaction_id: transaction });
          const bobs = await call(bob.client, "create_transaction", { ...args, reference });
          expect(bobs.structured.status, bobs.text).toBe("expired");
          expect(bobs.structured.transaction_id).toBeUndefined();
          expect(bobs.text).not.toContain(`transaction ${transaction}`);
          // Nor, with other arguments, which of her write's fields they differ in.
          const probing = await call(bob.client, "create_transaction", { ...args, amount: `${args.amount}1`, reference });
          expect(probing.structured.status, probing.text).toBe("expired");
        }
      } finally {
        await herModel.close();
      }
    } finally {
      await alice.close();
      await bob.close();
    }
  });
});
