export * from "./guard-store.js";
export * from "./file-guard-store.js";
export * from "../audit/write-traces.js";
export * from "./store-location.js";
export { SavedWindows, SAVED_WINDOW_MAX_BYTES, type SavedWindow, type WindowPlace, type LoadedWindow, type WindowShelf } from "./saved-windows.js";
export { SavedRowsRefused, SavedRowsText, type SavedRow } from "./saved-rows-text.js";
