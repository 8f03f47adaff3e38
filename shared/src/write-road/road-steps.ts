// The road's steps one by one, for the tests that exercise each against the emulator. A surface
// never imports these: it walks the whole road (WriteRoad), which calls them in their fixed order.
export { planWrite } from "./plan-write.js";
export { sendOnce } from "./send-once.js";
export { lookUpLostAnswer, recognitionOf, unansweredWrite } from "./lost-answer-lookup.js";
export { checkDuplicate } from "./duplicate-check.js";
