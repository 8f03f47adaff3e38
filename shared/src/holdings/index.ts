export * from "./funds-held.js";
export * from "./account-holdings.js";
export * from "./unfinished-transactions.js";
