import { describe, expect, it } from "vitest";
import {
  billableChars,
  centsDown,
  centsUp,
  costMicro,
  countChars,
  estimateCostYuan,
  microToYuan,
  parseYuanAmount,
  pricePerWanMicro,
  quote,
} from "../src/index.js";

const YUAN = 1_000_000;

describe("characters", () => {
  it("counts code points, not UTF-16 units", () => {
    expect(countChars("𠮷")).toBe(1);
    expect(countChars("你好")).toBe(2);
    expect(countChars("a😀b")).toBe(3);
    expect(countChars("")).toBe(0);
    // A lone surrogate is still one code point, whatever follows it.
    expect(countChars("\ud800x")).toBe(2);
    expect(countChars("\ud800中")).toBe(2);
    expect(countChars("\ud800\ue000")).toBe(2);
    expect(countChars("\udc00\ud800")).toBe(2);
  });

  it.each([
    [1, 50],
    [49, 50],
    [50, 50],
    [51, 100],
    [100, 100],
    [101, 150],
    [4999, 5000],
    [5000, 5000],
  ])("%i raw characters bill as %i", (raw, billable) => {
    expect(billableChars(raw)).toBe(billable);
  });
});

describe("price tiers by total recharge", () => {
  it.each([
    [0, 2_000_000],
    [499.99, 2_000_000],
    [500, 1_900_000],
    [1999.99, 1_900_000],
    [2000, 1_750_000],
    [100000, 1_750_000],
  ])("%f yuan recharged -> %i micro-yuan per 10,000", (yuan, price) => {
    expect(pricePerWanMicro(Math.round(yuan * YUAN))).toBe(price);
  });
});

describe("cost", () => {
  it("2 characters cost 0.01 yuan at the standard price (interface 4.1)", () => {
    const q = quote("你好", 2_000_000);
    expect(q).toEqual({ rawChars: 2, billableChars: 50, costMicro: 10_000 });
    expect(microToYuan(q.costMicro)).toBe(0.01);
  });

  it.each([
    [50, 2_000_000, 10_000],
    [50, 1_900_000, 9_500],
    [50, 1_750_000, 8_750],
    [100, 1_750_000, 17_500],
    [5000, 2_000_000, 1_000_000],
    [5000, 1_900_000, 950_000],
    [5000, 1_750_000, 875_000],
  ])("%i billable characters at %i cost %i micro-yuan, exactly", (billable, price, cost) => {
    expect(costMicro(billable, price)).toBe(cost);
  });

  it("rounds a fraction of a micro-yuan up, for a price that does not divide evenly", () => {
    // 50 × 1 999 999 / 10 000 = 9 999.995
    expect(costMicro(50, 1_999_999)).toBe(10_000);
    expect(costMicro(1, 1)).toBe(1);
  });

  it("converts to yuan at the edge without float noise", () => {
    expect(microToYuan(8750)).toBe(0.00875);
    expect(microToYuan(17_500)).toBe(0.0175);
    expect(microToYuan(9_990_000)).toBe(9.99);
  });

  it("estimates from the yuan price that GET /account reports", () => {
    expect(estimateCostYuan("你好", 1.75)).toBe(0.00875);
    expect(estimateCostYuan("x".repeat(51), 1.9)).toBe(0.019);
  });
});

describe("cents in error details", () => {
  it("rounds the required amount up and the available amount down", () => {
    expect(centsUp(8_750)).toBe(1);
    expect(centsUp(10_000)).toBe(1);
    expect(centsUp(10_001)).toBe(2);
    expect(centsDown(9_999)).toBe(0);
    expect(centsDown(10_000)).toBe(1);
    expect(centsDown(18_750)).toBe(1);
  });
});

describe("recharge amounts", () => {
  it.each([
    ["12", 12 * YUAN],
    ["12.5", 12_500_000],
    ["0.01", 10_000],
    [" 7 ", 7 * YUAN],
    [99.99, 99_990_000],
  ])("%s yuan is %i micro-yuan", (input, micro) => {
    expect(parseYuanAmount(input)).toBe(micro);
  });

  it.each(["0", "0.00", "-1", "1.001", "abc", "", "1e3", "01", "1.", Number.NaN, 0.1 + 0.2])("rejects %s", (input) => {
    expect(parseYuanAmount(input)).toBeUndefined();
  });
});
