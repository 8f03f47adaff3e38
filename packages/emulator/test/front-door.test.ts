import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { ErrorBody, newLocalSecret } from "@custody/shared";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { buildEmulator } from "./support/build-once.js";
import { expectStatus, registerOperator, startHarness, type Harness } from "./support/harness.js";
import { HttpCaller, obj } from "./support/http-client.js";
import { rawRequest, type RawAnswer } from "./support/raw-request.js";
import { PACKAGE_DIR, spawnCli, waitForExit } from "./support/spawn-cli.js";
import { tempDir } from "./support/temp-dir.js";

// A web page in the user's browser can send requests to any loopback port: a Host or Origin that is
// not this server, or a body not declared JSON, is refused before anything is read or changed.

const error = (answer: RawAnswer) => ErrorBody.parse(answer.body);
const JSON_TYPE = { "content-type": "application/json" };

describe("the emulator's front door", () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  const port = () => new URL(h?.emulator.baseUrl ?? "").port;
  const clockOffset = async () => obj(expectStatus(await (h as Harness).control.get("/clock"), 200)).offset_ms;

  it("refuses a Host that is not this loopback server (DNS rebinding), on the service and the control plane", async () => {
    h = await startHarness();
    for (const url of [`${h.emulator.baseUrl}/_health`, `${h.emulator.controlUrl}/clock`]) {
      for (const host of [`evil.example:${port()}`, `127.0.0.1:${Number(port()) + 1}`, "localhost"]) {
        const answer = await rawRequest(url, "GET", { host, "x-vendor-api-user": "treasury-bot" });
        expect(answer.status, `${url} Host ${host}`).toBe(403);
        expect(error(answer)).toMatchObject({ name: "HostNotAllowed", status_code: 403, message: expect.stringContaining(`127.0.0.1:${port()}`) });
      }
    }
    expect((await rawRequest(`${h.emulator.controlUrl}/clock`, "GET", { host: `localhost:${port()}` })).status).toBe(200);
    expect((await rawRequest(`${h.emulator.controlUrl}/clock`, "GET", { host: `[::1]:${port()}` })).status).toBe(200);
  });

  it("refuses a POST from a foreign Origin to the control plane and to the service, and nothing changes", async () => {
    h = await startHarness();
    await registerOperator(h, "op");
    const before = await clockOffset();
    const evil = { host: `127.0.0.1:${port()}`, origin: "https://evil.example", ...JSON_TYPE };
    const advance = await rawRequest(`${h.emulator.controlUrl}/clock/advance`, "POST", evil, JSON.stringify({ seconds: 3600 }));
    expect(advance.status).toBe(403);
    expect(error(advance)).toMatchObject({ name: "OriginNotAllowed", message: expect.stringContaining('"https://evil.example"') });
    expect(await clockOffset()).toBe(before);

    const created = await rawRequest(
      `${h.emulator.baseUrl}/api_users`,
      "POST",
      { ...evil, "x-vendor-api-user": "page-bot" },
      JSON.stringify({ name: "page-bot" }),
    );
    expect(created.status).toBe(403);
    expect(error(created).name).toBe("OriginNotAllowed");
    expect((await h.api("op").get("/users")).text).not.toContain("page-bot");

    // The emulator's own origin (a loopback origin on its port) is served.
    const own = await rawRequest(
      `${h.emulator.controlUrl}/clock/advance`,
      "POST",
      { ...evil, origin: `http://localhost:${port()}` },
      JSON.stringify({ seconds: 60 }),
    );
    expect(own.status).toBe(200);
  });

  it("refuses a body not declared JSON (415) before reading it: a text/plain POST changes nothing", async () => {
    h = await startHarness();
    await registerOperator(h, "op");
    const host = { host: `127.0.0.1:${port()}` };
    const accountsBefore = obj(expectStatus(await h.api("op").get("/accounts"), 200)).page_info;
    const body = JSON.stringify({
      name: "from-a-page",
      currency: "polkadot",
      governance: { transaction: { creators: [], steps: [] }, staking: null, smart_contract: null },
    });
    for (const contentType of [
      "text/plain",
      "text/plain;charset=UTF-8",
      "application/x-www-form-urlencoded",
      "multipart/form-data; boundary=x",
      "application/json; charset=latin1",
      "application/jsonx",
    ]) {
      const answer = await rawRequest(`${h.emulator.controlUrl}/accounts`, "POST", { ...host, "content-type": contentType }, body);
      expect(answer.status, contentType).toBe(415);
      expect(error(answer)).toMatchObject({ name: "UnsupportedMediaType", status_code: 415, message: expect.stringContaining(JSON.stringify(contentType)) });
    }
    const none = await rawRequest(
      `${h.emulator.baseUrl}/api_users`,
      "POST",
      { ...host, "x-vendor-api-user": "plain-bot" },
      JSON.stringify({ name: "plain-bot" }),
    );
    expect(none.status).toBe(415);
    expect(error(none).message).toContain("application/json");
    expect(obj(expectStatus(await h.api("op").get("/accounts"), 200)).page_info).toEqual(accountsBefore);
    expect((await h.api("op").get("/users")).text).not.toContain("plain-bot");

    const withCharset = await rawRequest(`${h.emulator.controlUrl}/accounts`, "POST", { ...host, "content-type": "application/json; charset=utf-8" }, body);
    expect(withCharset.status).toBe(200);
    // No body needs no content type (a sync, a stake action).
    expect((await rawRequest(`${h.emulator.controlUrl}/process`, "POST", host)).status).toBe(200);
  });

  it("bound beyond loopback, also serves a Host naming an IP address with its port, never a DNS name", async () => {
    h = await startHarness({ host: "0.0.0.0" });
    expect((await rawRequest(`${h.emulator.controlUrl.replace("0.0.0.0", "127.0.0.1")}/clock`, "GET", { host: `192.0.2.7:${port()}` })).status).toBe(200);
    expect(error(await rawRequest(`${h.emulator.controlUrl.replace("0.0.0.0", "127.0.0.1")}/clock`, "GET", { host: `evil.example:${port()}` })).name).toBe(
      "HostNotAllowed",
    );
    await h.close();
    h = await startHarness();
    expect(error(await rawRequest(`${h.emulator.controlUrl}/clock`, "GET", { host: `192.0.2.7:${port()}` })).name).toBe("HostNotAllowed");
  });
});

describe("an emulator started with a key", () => {
  it("serves only requests carrying it in X-Emulator-Key, on the service and the control plane, and never shows it", async () => {
    const key = newLocalSecret();
    const lines: string[] = [];
    const h = await startHarness({ key, log: (line) => lines.push(line) });
    try {
      for (const url of [`${h.emulator.baseUrl}/_health`, `${h.emulator.controlUrl}/clock`]) {
        // The harness's empty workspace knows no operator: /_health answers 400 UnknownApiUser once past the door.
        const host = { host: new URL(url).host, "x-vendor-api-user": "treasury-bot" };
        const missing = await rawRequest(url, "GET", host);
        expect(missing.status, url).toBe(401);
        expect(error(missing)).toMatchObject({ name: "EmulatorKeyRequired", message: expect.stringContaining("X-Emulator-Key") });
        const wrong = await rawRequest(url, "GET", { ...host, "x-emulator-key": newLocalSecret() });
        expect(wrong.status, url).toBe(403);
        expect(error(wrong).name).toBe("EmulatorKeyWrong");
        expect(`${missing.text}${wrong.text}`).not.toContain(key);
        expect((await rawRequest(url, "GET", { ...host, "x-emulator-key": key })).status, url).toBe(url.endsWith("/clock") ? 200 : 400);
      }
      const keyed = new HttpCaller(h.emulator.controlUrl, { "x-emulator-key": key });
      expectStatus(await keyed.post("/clock/advance", { seconds: 1 }), 200);
      expect(lines.join("\n")).not.toContain(key);
    } finally {
      await h.close();
    }
  });

  it("refuses a key too short to be secret at start", async () => {
    await expect(startHarness({ key: "short" })).rejects.toThrow(/^key: must be 32 to 1024 printable ASCII characters/);
  });
});

describe("custody-emulator serve --key-file", () => {
  beforeAll(() => buildEmulator(), 120_000);
  const dir = tempDir("custody-emulator-key-");
  afterAll(() => dir.remove());

  it("requires the key held in the file; without one configured, the CLI serves as before", async () => {
    const key = newLocalSecret();
    const keyFile = join(dir.path, "key");
    writeFileSync(keyFile, `${key}\n`, { mode: 0o600 });
    const running = await spawnCli(["serve", "--port", "0", "--seed", "empty", "--key-file", keyFile]);
    try {
      expect(JSON.stringify(running.ready)).not.toContain(key);
      expect((await new HttpCaller(running.ready.control_url).get("/clock")).status).toBe(401);
      expect((await new HttpCaller(running.ready.control_url, { "x-emulator-key": key }).get("/clock")).status).toBe(200);
    } finally {
      running.child.kill("SIGTERM");
      await waitForExit(running.child);
    }
    expect(running.stderr()).not.toContain(key);
    const open = await spawnCli(["serve", "--port", "0", "--seed", "empty"]);
    try {
      expect((await new HttpCaller(open.ready.control_url).get("/clock")).status).toBe(200);
    } finally {
      open.child.kill("SIGTERM");
      await waitForExit(open.child);
    }
  });

  it("refuses to start on a key file it cannot use, naming the setting and never quoting the file's content", () => {
    writeFileSync(join(dir.path, "weak"), "password123", { mode: 0o600 });
    const weak = spawnSync(process.execPath, [`${PACKAGE_DIR}bin/custody-emulator.js`, "serve", "--key-file", join(dir.path, "weak")], { encoding: "utf8" });
    expect(weak.status).toBe(2);
    expect(weak.stderr).toMatch(/--key-file: the key in .*weak must be 32 to 1024 printable ASCII characters/);
    expect(weak.stderr).not.toContain("password123");
    const absent = spawnSync(process.execPath, [`${PACKAGE_DIR}bin/custody-emulator.js`, "serve"], {
      encoding: "utf8",
      env: { ...process.env, CUSTODY_EMULATOR_KEY_FILE: join(dir.path, "absent") },
    });
    expect(absent.status).toBe(2);
    expect(absent.stderr).toContain("CUSTODY_EMULATOR_KEY_FILE: cannot read");
  });
});
