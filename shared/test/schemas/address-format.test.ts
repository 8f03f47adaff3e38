import { describe, expect, it } from "vitest";
import {
  addressProblem,
  base58Decode,
  base58Encode,
  eip55Checksummed,
  isEthereumAddress,
  isPolkadotAddress,
  isSolanaAddress,
  sameAddress,
} from "../../src/index.js";

const POLKADOT = "15oF4uVJwmo4TdGW7VfQxNLavjCXviqxT9S1MgbjMNHr6Sp5";
const SOLANA = "DBXLDrUVoTGaqts7Q1fkdMqENp8h7Knz6vQpkmYTbTQf";
const ETHEREUM = "0x1e68238cE926DEC62b3FBC99AB06eB1D85CE0270";

describe("address formats of the three networks", () => {
  it.each([
    ["a Solana key", "Solana", SOLANA, true],
    ["the all-zero Solana key", "Solana", "11111111111111111111111111111111", true],
    ["base58 of 33 bytes", "Solana", "1111111111111111111111111111111111", false],
    ["a Solana address with a character outside base58", "Solana", `${SOLANA.slice(0, -1)}0`, false],
    ["a Polkadot address on a Solana account", "Solana", POLKADOT, false],
    ["a Polkadot address", "Polkadot", POLKADOT, true],
    ["a Polkadot address with one letter's case changed (checksum)", "Polkadot", `${POLKADOT.slice(0, -2)}SP5`, false],
    ["a Solana address on a Polkadot account", "Polkadot", SOLANA, false],
    ["an Ethereum address", "Ethereum", ETHEREUM, true],
    ["an Ethereum address in lower case", "Ethereum", ETHEREUM.toLowerCase(), true],
    ["an Ethereum address in upper case (no checksum either)", "Ethereum", `0x${ETHEREUM.slice(2).toUpperCase()}`, true],
    ["an Ethereum address with one letter's case changed (EIP-55 checksum)", "Ethereum", ETHEREUM.replace("cE926", "ce926"), false],
    ["an Ethereum address with one digit mistyped, its case kept", "Ethereum", ETHEREUM.replace("cE926", "cE927"), false],
    ["39 hex digits", "Ethereum", ETHEREUM.slice(0, -1), false],
    ["a Solana address on an Ethereum account", "Ethereum", SOLANA, false],
  ] as const)("%s", (_name, network, address, valid) => {
    expect(addressProblem(network, address) === undefined).toBe(valid);
    const check = { Solana: isSolanaAddress, Polkadot: isPolkadotAddress, Ethereum: isEthereumAddress }[network];
    expect(check(address)).toBe(valid);
  });

  it("says what the network's form is, and what it got", () => {
    expect(addressProblem("Polkadot", SOLANA)).toBe(`must be a Polkadot SS58 address (network prefix 0) with a valid checksum, got "${SOLANA}"`);
    expect(addressProblem("Solana", "x")).toBe('must be a Solana address (base58 of 32 bytes), got "x"');
    expect(addressProblem("Ethereum", "0x12")).toBe('must be an Ethereum address (0x then 40 hex digits; in mixed case, a valid EIP-55 checksum), got "0x12"');
  });

  it("spells EIP-55 checksums as the EIP's own examples do", () => {
    for (const spelled of [
      "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
      "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359",
      "0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB",
      "0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb",
    ]) {
      expect(eip55Checksummed(spelled.toLowerCase())).toBe(spelled);
      expect(isEthereumAddress(spelled)).toBe(true);
    }
  });

  it("round-trips base58, leading zero bytes included", () => {
    const bytes = Uint8Array.from([0, 0, 1, 2, 255, 254, 0, 9]);
    expect(base58Decode(base58Encode(bytes))).toEqual(bytes);
    expect(base58Decode("0OIl")).toBeUndefined();
  });
});

describe("the same address", () => {
  it.each([
    ["Solana, exact", "Solana", SOLANA, ` ${SOLANA} `, true],
    ["Solana, another case", "Solana", SOLANA, SOLANA.toLowerCase(), false],
    ["Polkadot, another case", "Polkadot", POLKADOT, POLKADOT.toUpperCase(), false],
    ["Ethereum hex, another case", "Ethereum", ETHEREUM, ETHEREUM.toLowerCase(), true],
    ["Ethereum, not hex", "Ethereum", "abc", "ABC", false],
    ["an unknown network, another case", null, "abc", "ABC", false],
  ] as const)("%s", (_name, network, a, b, same) => {
    expect(sameAddress(network, a, b)).toBe(same);
  });
});
