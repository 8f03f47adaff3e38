export * from "./amount-error.js";
export * from "./currency-units.js";
export * from "./parse-units.js";
export * from "./format-units.js";
export * from "./amount-in-unit.js";
export * from "./describe-amount.js";
