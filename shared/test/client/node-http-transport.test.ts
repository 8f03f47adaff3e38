import type { AddressInfo, Socket } from "node:net";
import { createServer as createNetServer } from "node:net";
import type { TLSSocket } from "node:tls";
import { describe, expect, it, vi } from "vitest";
import type { CustodyClientOptions } from "../../src/client/client-options.js";
import { CustodyClient } from "../../src/client/custody-client.js";
import { AmbiguousWriteError, NetworkError, ResponseValidationError, TimeoutError } from "../../src/client/errors.js";
import { buildSendRequest } from "../../src/kinds/send/send-request.js";
import { SOLANA_PAYOUT } from "../currency-fixtures.js";
import { caught } from "./caught.js";
import type { Handler, Served } from "./loopback-servers.js";
import { answerJson, selfSignedCertificate, serve, trustingAnyCertificate } from "./loopback-servers.js";
import { healthWire, transactionWire } from "./wire-fixtures.js";

// The client's own node:http path, against servers that behave as the scripted server cannot.

function client(served: Served, options: Partial<CustodyClientOptions> = {}): CustodyClient {
  return new CustodyClient({ baseUrl: served.baseUrl, operator: "treasury-bot", timeoutMs: 2_000, retry: { retries: 0 }, ...options });
}

/** Health on GET, a transaction on POST. */
const healthy: Handler = (req, res) => answerJson(res, req.method === "POST" ? transactionWire() : healthWire, req.method === "POST" ? 201 : 200);

const sendBody = () => buildSendRequest({ ...SOLANA_PAYOUT, note: { title: "payout-2024-03-ref-77", content: "March payout" } });

describe("connections", () => {
  it("GETs share one kept-alive connection; a POST goes on a connection of its own, closed after its answer", async () => {
    const served = await serve(healthy);
    const custody = client(served);
    for (let index = 0; index < 3; index += 1) await custody.health();
    expect(served.sockets).toHaveLength(1);
    await custody.createTransaction(sendBody());
    expect(served.requests.at(-1)).toBe("POST /module/transactions #1");
    await served.closed(1);
    await custody.health();
    expect(served.requests.at(-1)).toBe("GET /module/_health #0");
    expect(served.sockets).toHaveLength(2);
  });

  it("a kept-alive connection closed as the next request arrives: the GET is asked again, a POST never meets such a connection", async () => {
    // Any request after the first on a connection finds it closed without an answer, as when a
    // server's idle timeout closes it just as the request is sent.
    const served = await serve((req, res, connection) => {
      if (served.requests.filter((request) => request.endsWith(`#${connection}`)).length > 1) req.socket.destroy();
      else healthy(req, res, connection);
    });
    const custody = client(served, { retry: { retries: 1, baseDelayMs: 1, random: () => 0 } });
    await custody.health();
    expect((await custody.health()).status).toBe("ok");
    expect(served.requests).toEqual(["GET /module/_health #0", "GET /module/_health #0", "GET /module/_health #1"]);

    await custody.health();
    expect((await custody.createTransaction(sendBody())).id).toBe(transactionWire().id);
    expect(served.requests.filter((request) => request.startsWith("POST"))).toHaveLength(1);
  });

  it("a POST whose own connection closes without an answer is an outcome unknown, sent once", async () => {
    const served = await serve((req) => req.socket.destroy());
    const error = await caught(client(served).createTransaction(sendBody()));
    expect(error).toBeInstanceOf(AmbiguousWriteError);
    expect(error).toMatchObject({ reason: "network" });
    expect(served.requests).toHaveLength(1);
  });

  it("closes a connection left idle before a server's usual 5 s keep-alive timeout would", async () => {
    // This server keeps idle connections a minute, and says so: the client closes it by its own rule.
    const served = await serve(healthy, { keepAliveTimeout: 60_000 });
    await client(served).health();
    const idleSince = Date.now();
    await served.closed(0);
    expect(Date.now() - idleSince).toBeLessThan(5_000);
  }, 10_000);

  it("an answer slower than the idle connections' limit still arrives", async () => {
    const served = await serve((req, res, connection) => setTimeout(() => healthy(req, res, connection), 4_300));
    expect((await client(served, { timeoutMs: 10_000 }).health()).status).toBe("ok");
  }, 10_000);

  it("an abort closes the request's connection", async () => {
    const served = await serve(() => {});
    const controller = new AbortController();
    const call = client(served).health({ signal: controller.signal });
    await vi.waitFor(() => expect(served.requests).toHaveLength(1));
    controller.abort(new Error("stop"));
    await expect(call).rejects.toThrow("stop");
    await served.closed(0);
  });

  it("reaches a service at an IPv6 literal", async () => {
    const served = await serve(healthy, { host: "::1" });
    expect(served.baseUrl).toMatch(/^http:\/\/\[::1\]:\d+\/module$/);
    expect((await client(served).health()).status).toBe("ok");
  });
});

describe("bodies", () => {
  it("a body that trickles in ends at the call's timeout, not at an idle timeout", async () => {
    const served = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.write(" ");
      const drip = setInterval(() => res.write(" "), 20);
      res.on("close", () => clearInterval(drip));
    });
    const started = Date.now();
    const error = await caught(client(served, { timeoutMs: 300 }).health());
    expect(error).toBeInstanceOf(TimeoutError);
    expect(Date.now() - started).toBeLessThan(1_500);
    await served.closed(0);
  });

  it("a body of no declared length is cut where it passes the limit, and its connection closed", async () => {
    const served = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      const pour = setInterval(() => res.write("x".repeat(1024)), 5);
      res.on("close", () => clearInterval(pour));
    });
    const error = await caught(client(served, { maxResponseBytes: 4096 }).health());
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error.message).toContain("(a body of more than 4096 bytes, not read)");
    await served.closed(0);
  });

  it("a POST's answer cut mid-body is an outcome unknown", async () => {
    const served = await serve((req, res) => {
      res.writeHead(201, { "content-type": "application/json", "content-length": "1000" });
      res.write('{"id": 1, "amount": "12', () => req.socket.destroy());
    });
    const error = await caught(client(served).createTransaction(sendBody()));
    expect(error).toBeInstanceOf(AmbiguousWriteError);
    expect(error).toMatchObject({ reason: "network" });
    expect(served.requests).toHaveLength(1);
  });
});

describe("https", () => {
  const tls = selfSignedCertificate();

  it("speaks TLS to an https base URL, and checks the service's certificate", async () => {
    const encrypted: boolean[] = [];
    const served = await serve(
      (req, res) => {
        encrypted.push((req.socket as TLSSocket).encrypted);
        answerJson(res, healthWire);
      },
      { tls },
    );
    const custody = client(served);

    const refused = await caught(custody.health());
    expect(refused).toBeInstanceOf(NetworkError);
    expect(refused).toMatchObject({ code: "DEPTH_ZERO_SELF_SIGNED_CERT" });
    expect(encrypted).toEqual([]);

    expect((await trustingAnyCertificate(() => custody.health())).status).toBe("ok");
    expect(encrypted).toEqual([true]);
  });

  it("a POST refused for the service's certificate was not sent, and says what is wrong with the certificate", async () => {
    const served = await serve(healthy, { tls });
    const error = await caught(client(served).createTransaction(sendBody()));
    expect(error).toBeInstanceOf(NetworkError);
    expect(error.message).toBe("POST /transactions: network error (DEPTH_ZERO_SELF_SIGNED_CERT); the request was not sent, nothing was written");
    expect(served.requests).toEqual([]);
  });

  it("a POST whose connection is reset during the TLS handshake was not sent, whatever the error's code", async () => {
    // ECONNRESET after connecting is an outcome unknown over plain HTTP; here the handshake never ended.
    const server = createNetServer((socket) => socket.once("data", () => socket.resetAndDestroy()));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const baseUrl = `https://127.0.0.1:${(server.address() as AddressInfo).port}/module`;
      const error = await caught(new CustodyClient({ baseUrl, operator: "treasury-bot", retry: { retries: 0 } }).createTransaction(sendBody()));
      expect(error).toBeInstanceOf(NetworkError);
      expect(error).toMatchObject({ code: "ECONNRESET" });
      expect(error.message).toContain("the request was not sent");
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it("a POST whose TLS handshake never ends was not sent: at the timeout, and when aborted", async () => {
    // The service takes the connection and its ClientHello, and says nothing.
    const hellos: Socket[] = [];
    const server = createNetServer((socket) => socket.once("data", () => hellos.push(socket)));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const baseUrl = `https://127.0.0.1:${(server.address() as AddressInfo).port}/module`;
      const custody = new CustodyClient({ baseUrl, operator: "treasury-bot", timeoutMs: 300, retry: { retries: 0 } });
      const late = await caught(custody.createTransaction(sendBody()));
      expect(late).toBeInstanceOf(NetworkError);
      expect(late.message).toBe("POST /transactions: network error (ETIMEDOUT); the request was not sent, nothing was written");

      const controller = new AbortController();
      const call = custody.createTransaction(sendBody(), { signal: controller.signal, timeoutMs: 10_000 });
      await vi.waitFor(() => expect(hellos).toHaveLength(2));
      controller.abort(new Error("stop"));
      const stopped = await caught(call);
      expect(stopped).not.toBeInstanceOf(AmbiguousWriteError);
      expect(stopped.message).toBe("stop");
    } finally {
      for (const socket of hellos) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it("a POST whose connection is reset once the service read it, over TLS, is an outcome unknown", async () => {
    const served = await serve((req) => req.socket.destroy(), { tls });
    const error = await trustingAnyCertificate(() => caught(client(served).createTransaction(sendBody())));
    expect(error).toBeInstanceOf(AmbiguousWriteError);
    expect(error).toMatchObject({ reason: "network" });
    expect(served.requests).toEqual(["POST /module/transactions #0"]);
  });
});
