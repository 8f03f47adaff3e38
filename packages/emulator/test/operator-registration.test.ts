import { ApiUser, ErrorBody, UNKNOWN_OPERATOR_ERROR_NAME, UserPage } from "@custody/shared";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { expectStatus, startHarness, type Harness } from "./support/harness.js";
import { obj } from "./support/http-client.js";
import { decode } from "./support/wire.js";

describe("operator registration (spec: States and transitions, Operator registration)", () => {
  let h: Harness;
  beforeEach(async () => {
    h = await startHarness();
  });
  afterEach(async () => {
    await h.close();
  });

  async function userNamed(name: string) {
    await registerAdminReader();
    const page = decode(UserPage, await h.api("reader").get("/users?page_size=1000"));
    return page.edges.map((edge) => edge.node).find((user) => user.username === name);
  }

  /** A second operator, registered through the whole flow, to read /users. */
  async function registerAdminReader(): Promise<void> {
    if ((await h.api("reader").get("/users")).status === 200) return;
    const created = obj(await h.api("reader").post("/api_users", { name: "reader" }));
    const invitation = obj(await h.control.post("/invitations", { username: "reader", device_id: created.device_id }));
    await h.api("reader").post(`/api_users/reader/register/${String(invitation.uuid)}`);
    await h.control.post("/users/reader/approve", { admin: "alice.admin" });
    await h.control.post("/users/reader/approve", { admin: "bob.admin" });
  }

  it("step 1: POST /api_users creates the device identifier; the answer is the API user (role OPERATOR, SOFT_PSD)", async () => {
    const user = decode(ApiUser, expectStatus(await h.api("ops-bot").post("/api_users", { name: "ops-bot" }), 200));
    expect(user).toMatchObject({ name: "ops-bot", role: "OPERATOR", type_: "SOFT_PSD", workspace: "emulator-workspace" });
    expect(user.device_id).toMatch(/^[0-9a-f]{32}$/);
    const again = await h.api("ops-bot").post("/api_users", { name: "ops-bot" });
    expect(again.status).toBe(409);
  });

  it("step 1 refuses a name with a space, naming the field and the rule", async () => {
    const answer = await h.api("x").post("/api_users", { name: "ops bot" });
    expect(answer.status).toBe(400);
    expect(decode(ErrorBody, answer).message).toMatch(/^name: must contain no space/);
  });

  it("step 1 refuses a name beyond printable ASCII: the X-Vendor-API-User header could not name that operator", async () => {
    for (const name of ["bot-\u00fc", "bot-\u{1f680}", "bot\u0007"]) {
      const answer = await h.api("x").post("/api_users", { name });
      expect(answer.status, name).toBe(400);
      expect(decode(ErrorBody, answer).message, name).toBe("name: must be printable ASCII (it is sent in the X-Vendor-API-User header)");
      const register = await h.api("x").post(`/api_users/${encodeURIComponent(name)}/register/00000000-0000-4000-8000-000000000000`);
      expect(register.status, name).toBe(400);
    }
    expect(decode(ApiUser, expectStatus(await h.api("x").post("/api_users", { name: "bot-u" }), 200)).name).toBe("bot-u");
  });

  it("step 1 refuses an empty name with one message, and a missing one as required", async () => {
    expect(decode(ErrorBody, await h.api("x").post("/api_users", { name: "" })).message).toBe("name: must not be empty");
    expect(decode(ErrorBody, await h.api("x").post("/api_users", {})).message).toBe("name: required");
  });

  it("user records carry created_on in ISO 8601 with a written offset (+00:00)", async () => {
    await registerAdminReader();
    const answer = await h.api("reader").get("/users?page_size=1000");
    const page = decode(UserPage, answer);
    expect(page.edges.length).toBeGreaterThan(0);
    for (const { node } of page.edges) {
      expect(node.created_on).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}\+00:00$/);
      expect(Number.isNaN(Date.parse(node.created_on))).toBe(false);
    }
  });

  it("step 2: the administrator's invitation with the same name and device identifier issues a UUID", async () => {
    const created = obj(await h.api("ops-bot").post("/api_users", { name: "ops-bot" }));
    const invitation = obj(expectStatus(await h.control.post("/invitations", { username: "ops-bot", device_id: created.device_id }), 200));
    expect(invitation.uuid).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("step 3: POST /api_users/{name}/register/{uuid} answers success and creates a Create user request; the operator is not active yet", async () => {
    const created = obj(await h.api("ops-bot").post("/api_users", { name: "ops-bot" }));
    const invitation = obj(await h.control.post("/invitations", { username: "ops-bot", device_id: created.device_id }));
    const registered = expectStatus(await h.api("ops-bot").post(`/api_users/ops-bot/register/${String(invitation.uuid)}`, { name: "ops-bot" }), 200);
    expect(registered.body).toEqual({ success: true });
    const refused = await h.api("ops-bot").get("/accounts");
    expect(refused.status).toBe(403);
    expect(decode(ErrorBody, refused).name).toBe("OperatorPendingApproval");
    const user = await userNamed("ops-bot");
    expect(user?.status).toBe("PENDING_APPROVAL");
    expect(user?.user_id).toBe(created.device_id);
    expect(user?.is_api).toBe(true);
  });

  it("step 3 refuses an invitation made for another device identifier", async () => {
    await h.api("ops-bot").post("/api_users", { name: "ops-bot" });
    const invitation = obj(await h.control.post("/invitations", { username: "ops-bot", device_id: "ab".repeat(16) }));
    const answer = await h.api("ops-bot").post(`/api_users/ops-bot/register/${String(invitation.uuid)}`);
    expect(answer.status).toBe(400);
    expect(decode(ErrorBody, answer).message).toMatch(/device identifier/);
  });

  it("step 4: administrators approve up to the Admin rule's quorum (2), then the operator can use the API", async () => {
    const created = obj(await h.api("ops-bot").post("/api_users", { name: "ops-bot" }));
    const invitation = obj(await h.control.post("/invitations", { username: "ops-bot", device_id: created.device_id }));
    await h.api("ops-bot").post(`/api_users/ops-bot/register/${String(invitation.uuid)}`);
    const first = obj(expectStatus(await h.control.post("/users/ops-bot/approve", { admin: "alice.admin" }), 200));
    expect(first.status).toBe("PENDING_APPROVAL");
    expect((await h.api("ops-bot").get("/accounts")).status).toBe(403);
    const second = obj(expectStatus(await h.control.post("/users/ops-bot/approve", { admin: "bob.admin" }), 200));
    expect(second.status).toBe("ACTIVE");
    expect((await h.api("ops-bot").get("/accounts")).status).toBe(200);
  });

  it("an operator unknown to the module gets 400 UnknownApiUser, on the health check and elsewhere; no header too", async () => {
    for (const path of ["/_health", "/accounts", "/users"]) {
      const answer = await h.api("nobody").get(path);
      expect(answer.status).toBe(400);
      expect(decode(ErrorBody, answer)).toMatchObject({ name: UNKNOWN_OPERATOR_ERROR_NAME, status_code: 400 });
      expect(decode(ErrorBody, answer).message).toMatch(/nobody.*not known to the module/);
    }
    expect((await h.api(null).get("/accounts")).status).toBe(400);
  });

  it("a suspended or revoked operator is refused with 403; a suspended one can be reactivated", async () => {
    await registerAdminReader();
    expectStatus(await h.control.post("/users/reader/suspend"), 200);
    const suspended = await h.api("reader").get("/accounts");
    expect(suspended.status).toBe(403);
    expect(decode(ErrorBody, suspended).name).toBe("OperatorSuspended");
    expectStatus(await h.control.post("/users/reader/reactivate"), 200);
    expect((await h.api("reader").get("/accounts")).status).toBe(200);
    expectStatus(await h.control.post("/users/reader/revoke"), 200);
    const revoked = await h.api("reader").get("/accounts");
    expect(decode(ErrorBody, revoked).name).toBe("OperatorRevoked");
    expect((await h.control.post("/users/reader/reactivate")).status).toBe(409);
  });
});
