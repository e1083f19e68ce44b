import Fastify from "fastify";
import { describe, expect, it } from "vitest";
import { collectWhenIdle } from "../src/memory/idle-collector.js";

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("the idle collection", () => {
  it("collects once when the server falls idle after requests, never while a request is in flight, and not again until there was work", async () => {
    const app = Fastify({ logger: false });
    let collections = 0;
    let release: () => void = () => {};
    app.get("/slow", () => new Promise<string>((resolve) => (release = () => resolve("done"))));
    app.get("/fast", async () => "ok");
    collectWhenIdle(app, 50, () => collections++);
    await app.ready();

    await wait(120);
    expect(collections).toBe(0); // nothing happened yet: nothing to collect

    const slow = app.inject("/slow");
    await app.inject("/fast");
    await wait(120);
    expect(collections).toBe(0); // /slow is still in flight

    release();
    await slow;
    await wait(120);
    expect(collections).toBe(1);
    await wait(120);
    expect(collections).toBe(1);

    await app.inject("/fast");
    await wait(120);
    expect(collections).toBe(2);
    await app.close();
  });
});
