export * from "./person.js";
