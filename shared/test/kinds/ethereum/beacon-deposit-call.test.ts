import { describe, expect, it } from "vitest";
import { decodeDepositCall, DEPOSIT_CALL_BYTES, encodeDepositCall, withdrawalAddress } from "../../../src/index.js";

const PARTS = { pubkey: "a1".repeat(48), withdrawal_credentials: "b2".repeat(32), signature: "c3".repeat(96), deposit_data_root: "d4".repeat(32) };
const CALL = encodeDepositCall(PARTS);

describe("the beacon deposit call", () => {
  it("encodes one deposit in 420 bytes and reads it back", () => {
    expect(CALL.length).toBe(2 + DEPOSIT_CALL_BYTES * 2);
    expect(CALL.startsWith("0x22895118")).toBe(true);
    expect(decodeDepositCall(CALL)).toEqual({ parts: PARTS });
    expect(decodeDepositCall(CALL.slice(2).toUpperCase())).toEqual({ parts: PARTS });
  });

  it.each([
    ["another selector", `0xa9059cbb${CALL.slice(10)}`, "deposit selector"],
    ["a byte short", CALL.slice(0, -2), "not the 420 bytes"],
    ["a byte more", `${CALL}00`, "not the 420 bytes"],
    ["a moved offset", `${CALL.slice(0, 10)}${"0".repeat(62)}a0${CALL.slice(10 + 64)}`, "pubkey's offset 0xa0"],
    ["non-zero padding after the key", `${CALL.slice(0, 10 + (0x80 + 32 + 48) * 2)}ff${CALL.slice(10 + (0x80 + 32 + 49) * 2)}`, "padding after pubkey"],
    ["not hex", `0x${"zz".repeat(DEPOSIT_CALL_BYTES)}`, "not hex"],
    ["nothing (a call given by its ABI inputs only)", "", "is empty"],
  ])("refuses %s", (_name, data, problem) => {
    const decoded = decodeDepositCall(data);
    expect("problem" in decoded && decoded.problem).toContain(problem);
  });
});

describe("the withdrawal address of a deposit's credentials", () => {
  const address = "ab".repeat(20);

  it.each([["01"], ["02"]])("reads 0x%s credentials as their execution address, checksummed", (prefix) => {
    expect(withdrawalAddress(`${prefix}${"00".repeat(11)}${address}`)).toEqual({ address: "0xABaBaBaBABabABabAbAbABAbABabababaBaBABaB" });
  });

  it.each([
    ["BLS credentials", `00${"ab".repeat(31)}`, "BLS credentials (prefix 0x00)"],
    ["an unknown prefix", `03${"00".repeat(11)}${address}`, "prefix 0x03"],
    ["non-zero bytes before the address", `01${"00".repeat(10)}ff${address}`, "bytes 1 to 11 are not zero"],
  ])("names no address for %s", (_name, credentials, problem) => {
    const read = withdrawalAddress(credentials);
    expect("problem" in read && read.problem).toContain(problem);
  });
});
