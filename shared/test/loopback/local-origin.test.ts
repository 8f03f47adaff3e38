import { describe, expect, it } from "vitest";
import { localOriginRefusal } from "../../src/index.js";

const at = (host: string | undefined, origin?: string) => ({ headers: { host, origin } });

describe("the Host and Origin rule of a loopback server", () => {
  it.each(["127.0.0.1:4010", "localhost:4010", "LOCALHOST:4010", "[::1]:4010"])("accepts Host %s on its own port", (host) => {
    expect(localOriginRefusal(at(host), 4010)).toBeNull();
    expect(localOriginRefusal(at(host, `http://${host}`), 4010)).toBeNull();
  });

  it.each([undefined, "evil.example:4010", "127.0.0.1:4011", "127.0.0.1", "localhost.evil.example:4010", "192.168.1.5:4010"])("refuses Host %s", (host) => {
    expect(localOriginRefusal(at(host), 4010)).toMatchObject({ header: "Host", message: expect.stringContaining("127.0.0.1:4010") });
  });

  it.each(["https://evil.example", "http://evil.example:4010", "http://localhost:3000", "https://localhost:4010", "null"])("refuses Origin %s", (origin) => {
    expect(localOriginRefusal(at("127.0.0.1:4010", origin), 4010)).toMatchObject({
      header: "Origin",
      message: expect.stringContaining(JSON.stringify(origin)),
    });
  });

  it("accepts an IP address with the port only when told to (a server bound beyond loopback), never a DNS name", () => {
    const options = { addressHosts: true };
    expect(localOriginRefusal(at("192.168.1.5:4010"), 4010, options)).toBeNull();
    expect(localOriginRefusal(at("[fe80::1]:4010", "http://[fe80::1]:4010"), 4010, options)).toBeNull();
    expect(localOriginRefusal(at("192.168.1.5:4011"), 4010, options)?.header).toBe("Host");
    expect(localOriginRefusal(at("evil.example:4010"), 4010, options)?.header).toBe("Host");
    expect(localOriginRefusal(at("192.168.1.5:4010", "http://evil.example:4010"), 4010, options)?.header).toBe("Origin");
  });
});
