export * from "./frames.js";
export * from "./xing.js";
