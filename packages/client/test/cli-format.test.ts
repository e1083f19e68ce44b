import { describe, expect, it } from "vitest";
import { columns, displayWidth, duration, yuan } from "../src/cli/format.js";
import { describeError } from "../src/cli/messages.js";
import { nameFromText } from "../src/cli/output-name.js";
import { AuthError, InsufficientBalanceError } from "../src/index.js";

describe("what fy prints", () => {
  it("amounts in yuan without float noise", () => {
    expect(yuan(0.00875)).toBe("0.00875 yuan");
    expect(yuan(0.1 + 0.2)).toBe("0.3 yuan");
    expect(yuan(10)).toBe("10 yuan");
  });

  it("durations a person reads at a glance", () => {
    expect(duration(1_600)).toBe("1.6 s");
    expect(duration(3_454_772)).toBe("57 min 35 s");
    expect(duration(7_384_000)).toBe("2 h 3 min 4 s");
  });

  it("columns that line up when the cells hold Chinese", () => {
    expect(displayWidth("粤语女声 · 晓彤")).toBe(15);
    const lines = columns([
      ["yue-female-1", "粤语女声", "female"],
      ["x", "ab", "male"],
    ]);
    expect(lines).toEqual(["yue-female-1  粤语女声  female", "x             ab        male"]);
  });

  it("file names from the start of the text", () => {
    expect(nameFromText("你好，世界！")).toBe("你好-世界.mp3");
    expect(nameFromText("  Hello, world. How are you today, my friend?")).toBe("Hello-world-How-are.mp3");
    expect(nameFromText("？！…")).toBe("speech.mp3");
    expect(nameFromText("𠮷".repeat(30))).toBe(`${"𠮷".repeat(20)}.mp3`);
  });

  it("the balance error in yuan, as a person thinks of money", () => {
    const error = new InsufficientBalanceError("too low", {
      code: "INSUFFICIENT_BALANCE",
      status: 402,
      details: { required_cents: 2, available_cents: 1 },
      requestId: "req_abc",
    });
    expect(describeError(error, "http://127.0.0.1:8080/api/v1")).toBe(
      "Balance 0.01 yuan is short of the 0.02 yuan this text costs; recharge first [req_abc]",
    );
  });

  it("a clock error says which way and how far the clock is off", () => {
    const error = new AuthError(
      "outside the window",
      { code: "AUTH_ERROR", status: 401, details: { server_time_ms: 1_000_000, max_age_ms: 300_000 } },
      1_000_000 + 7 * 60_000 + 3_000,
    );
    expect(describeError(error, "http://x/api/v1")).toMatch(/^This computer's clock is 7 min 3 s ahead of the service's/);
  });
});
