export { InProcessChangeBus, addListener, tellListeners, type ChangeBus } from "./change-bus.js";
