export * from "./frames.js";
export * from "./join.js";
export * from "./xing.js";
