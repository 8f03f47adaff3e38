import { describe, expect, it } from "vitest";
import { InvalidInputError } from "../../../src/client/errors.js";
import { withInputFieldNames } from "../../../src/kinds/kit/input-field-names.js";

const refusal = () =>
  new InvalidInputError("Ethereum staking request (POST /transactions)", [
    { path: "contract_address", message: "must be an Ethereum address" },
    { path: "amount", message: "must be positive" },
  ]);

describe("withInputFieldNames", () => {
  it("renames the builder's field paths to the caller's, keeping the others and the subject", () => {
    const thrown = (() => {
      try {
        return withInputFieldNames({ contract_address: "contract" }, () => {
          throw refusal();
        });
      } catch (error) {
        return error;
      }
    })();
    expect(thrown).toBeInstanceOf(InvalidInputError);
    expect((thrown as Error).message).toBe(
      "invalid Ethereum staking request (POST /transactions): contract: must be an Ethereum address; amount: must be positive",
    );
  });

  it("renames the refusal of an async call too, and passes other errors and results through", async () => {
    await expect(
      withInputFieldNames({ uid: "stake_uid" }, () =>
        Promise.reject(new InvalidInputError("GET /solana/accounts/{account_id}/stakes/{uid}", [{ path: "uid", message: "must be a non-empty path segment" }])),
      ),
    ).rejects.toThrow("invalid GET /solana/accounts/{account_id}/stakes/{uid}: stake_uid: must be a non-empty path segment");
    await expect(withInputFieldNames({ uid: "stake_uid" }, () => Promise.reject(new RangeError("other")))).rejects.toBeInstanceOf(RangeError);
    expect(withInputFieldNames({}, () => 42)).toBe(42);
    expect(await withInputFieldNames({}, () => Promise.resolve("ok"))).toBe("ok");
  });
});
