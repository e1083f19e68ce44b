export * from "./base64.js";
export * from "./billing.js";
export * from "./envelope.js";
export * from "./errors.js";
export * from "./sentences.js";
export * from "./ssml.js";
export * from "./wire.js";
