export * from "@fangyan/protocol";
