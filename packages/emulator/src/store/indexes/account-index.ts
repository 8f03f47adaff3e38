import type { AccountRow } from "../state-types.js";
import { KeyMultimap } from "./key-multimap.js";
import { SortedIds } from "./sorted-ids.js";

function addressKey(currency: string, address: string): string {
  return `${currency}\n${address}`;
}

/** Ethereum addresses also match without regard to case (EIP-55 checksums are only a spelling). */
function foldedAddressKey(currency: string, address: string): string {
  return `${currency}\n~${address.toLowerCase()}`;
}

/** Accounts by id order, by name and by (currency, address): the look-ups each request makes. */
export class AccountIndex {
  readonly ids = new SortedIds();
  readonly #byName = new KeyMultimap<string, number>();
  readonly #byAddress = new KeyMultimap<string, number>();

  update(before: AccountRow | undefined, after: AccountRow | undefined): void {
    if (before && after && before.name === after.name && before.address === after.address && before.currency === after.currency) return;
    if (before) {
      if (!after) this.ids.delete(before.id);
      this.#byName.delete(before.name, before.id);
      this.#byAddress.delete(addressKey(before.currency, before.address), before.id);
      if (before.network === "Ethereum") this.#byAddress.delete(foldedAddressKey(before.currency, before.address), before.id);
    }
    if (after) {
      this.ids.add(after.id);
      this.#byName.add(after.name, after.id);
      this.#byAddress.add(addressKey(after.currency, after.address), after.id);
      if (after.network === "Ethereum") this.#byAddress.add(foldedAddressKey(after.currency, after.address), after.id);
    }
  }

  /** Ids of the committed accounts with exactly this name. */
  named(name: string): ReadonlySet<number> {
    return this.#byName.get(name);
  }

  /** Ids of the committed accounts of the currency whose address is this one (Ethereum: in any case). */
  at(currency: string, address: string): number[] {
    return [...new Set([...this.#byAddress.get(addressKey(currency, address)), ...this.#byAddress.get(foldedAddressKey(currency, address))])];
  }
}
