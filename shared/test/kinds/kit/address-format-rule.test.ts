import { describe, expect, it } from "vitest";
import { checkAddressFormat } from "../../../src/index.js";

describe("the address a write sends to", () => {
  it.each([
    [
      "Ethereum's zero address",
      "recipient",
      "Ethereum",
      "0x0000000000000000000000000000000000000000",
      "block:RECIPIENT_ADDRESS_BURN_ADDRESS",
      "the zero address",
    ],
    [
      "the 0x…dEaD burn address, in checksum case",
      "recipient",
      "Ethereum",
      "0x000000000000000000000000000000000000dEaD",
      "block:RECIPIENT_ADDRESS_BURN_ADDRESS",
      "0x…dEaD",
    ],
    ["Solana's System Program", "recipient", "Solana", "11111111111111111111111111111111", "block:RECIPIENT_ADDRESS_BURN_ADDRESS", "System Program"],
    [
      "Solana's incinerator as a validator",
      "validator",
      "Solana",
      "1nc1nerator11111111111111111111111111111111",
      "block:VALIDATOR_ADDRESS_BURN_ADDRESS",
      "incinerator",
    ],
    ["an ordinary Ethereum address", "recipient", "Ethereum", "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", "info:RECIPIENT_ADDRESS_OK", "well-formed"],
    ["an ordinary Solana address", "recipient", "Solana", "AtkYQZi27Cz6jNKdnG3wxES37ou6r31UKwFYzF8J8upk", "info:RECIPIENT_ADDRESS_OK", "well-formed"],
  ] as const)("%s", (_name, field, network, address, expected, words) => {
    const found = checkAddressFormat(field, network, address);
    expect(`${found.severity}:${found.code}`).toBe(expected);
    expect(found.message).toContain(words);
    if (found.severity === "block") expect(found.message).toMatch(new RegExp(`^${field}: .*lost$`));
  });
});
