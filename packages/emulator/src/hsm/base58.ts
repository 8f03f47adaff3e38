// Base58 is defined once, in shared (address validation uses it); the emulator's key and hash code imports it from here.
export { base58Decode, base58Encode } from "@custody/shared";
