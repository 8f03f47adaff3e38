const ALPHABET = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
const INDEX = new Map([...ALPHABET].map((character, index) => [character, index]));

/** Base58 (Bitcoin alphabet), as Solana addresses and signatures and SS58 addresses are written. */
export function base58Encode(bytes: Uint8Array): string {
  let zeros = 0;
  while (zeros < bytes.length && bytes[zeros] === 0) zeros += 1;
  const digits: number[] = [];
  for (let index = zeros; index < bytes.length; index += 1) {
    let carry = bytes[index] ?? 0;
    for (let d = 0; d < digits.length; d += 1) {
      carry += (digits[d] ?? 0) * 256;
      digits[d] = carry % 58;
      carry = Math.floor(carry / 58);
    }
    while (carry > 0) {
      digits.push(carry % 58);
      carry = Math.floor(carry / 58);
    }
  }
  return (
    "1".repeat(zeros) +
    digits
      .reverse()
      .map((digit) => ALPHABET[digit])
      .join("")
  );
}

/** The bytes of a base58 text, or undefined when it holds a character outside the alphabet. */
export function base58Decode(text: string): Uint8Array | undefined {
  let zeros = 0;
  while (zeros < text.length && text[zeros] === "1") zeros += 1;
  const bytes: number[] = [];
  for (let index = zeros; index < text.length; index += 1) {
    const value = INDEX.get(text[index] ?? "");
    if (value === undefined) return undefined;
    let carry = value;
    for (let b = 0; b < bytes.length; b += 1) {
      carry += (bytes[b] ?? 0) * 58;
      bytes[b] = carry & 0xff;
      carry >>= 8;
    }
    while (carry > 0) {
      bytes.push(carry & 0xff);
      carry >>= 8;
    }
  }
  return Uint8Array.from([...new Array<number>(zeros).fill(0), ...bytes.reverse()]);
}
