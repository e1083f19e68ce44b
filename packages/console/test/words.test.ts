import {
  APIConnectionError,
  APIError,
  ERROR_CODES,
  ERRORS,
  InsufficientBalanceError,
  InvalidApiKeyError,
  MissingParameterError,
  RateLimitError,
} from "@fangyan/client";
import { describe, expect, it } from "vitest";
import { explain, wordingOf } from "../src/explain.js";
import { I18n, isMessageKey } from "../src/i18n/i18n.js";
import { formatMicro, formatYuan } from "../src/money.js";
import { describeTier } from "../src/tiers.js";

const zh = new I18n("zh");
const en = new I18n("en");

describe("errors in plain words", () => {
  const short = new InsufficientBalanceError("Insufficient balance", {
    code: "INSUFFICIENT_BALANCE",
    status: 402,
    details: { required_cents: 2, available_cents: 1 },
    requestId: "req_abc",
  });

  it("insufficient balance says what was needed and what is available, in yuan", () => {
    expect(explain(short, zh)).toBe("余额不足：需要 0.02 元，余额 0.01 元。请充值后再试。（请求编号 req_abc）");
    expect(explain(short, en)).toBe(
      "Not enough balance: this needs 0.02 yuan, the balance is 0.01 yuan. Recharge, then try again. (request req_abc)",
    );
  });

  it("a rate limit says how long to wait and until when", () => {
    const limited = new RateLimitError("Rate limit exceeded", {
      code: "RATE_LIMIT_EXCEEDED",
      status: 429,
      details: { limit: 60, window_seconds: 60, retry_after_seconds: 12 },
      headers: new Headers({ "retry-after": "12" }),
    });
    const now = new Date(2026, 0, 2, 9, 30, 0).getTime();
    expect(explain(limited, zh, () => now)).toBe("请求太频繁：请在 12 秒后（09:30:12）再试。");
    expect(explain(limited, en, () => now)).toBe("Too many requests: try again in 12 seconds (at 09:30:12).");
  });

  it("a refused key, an out-of-range control and a network failure each have their own sentence", () => {
    expect(explain(new InvalidApiKeyError("Invalid API key", { code: "INVALID_API_KEY", status: 401 }), zh)).toBe(
      "API 密钥无效，或它（或它的账户）已被停用。",
    );
    const invalid = new MissingParameterError("speed must be 0.5-2.0", {
      code: "MISSING_PARAMETER",
      status: 400,
      details: { invalid: ["speed"] },
    });
    expect(explain(invalid, zh)).toBe("声音调节超出范围：语速。");
    const ssml = new MissingParameterError("text is not valid SSML", {
      code: "MISSING_PARAMETER",
      status: 400,
      details: {
        invalid: ["text"],
        ssml: { line: 2, column: 5, element: "break", reason: 'time="20s" is longer than the 10 s a break may last' },
      },
    });
    expect(explain(ssml, zh)).toBe('SSML 有误（第 2 行第 5 列 <break>）：time="20s" is longer than the 10 s a break may last。没有扣费。');
    expect(explain(ssml, en)).toBe(
      'The SSML is not valid (line 2, column 5 <break>): time="20s" is longer than the 10 s a break may last. Nothing was charged.',
    );
    expect(explain(new APIConnectionError("fetch failed"), en)).toBe("Could not reach the service: check the network, then try again.");
  });
});

describe("every error code has the table's wording", () => {
  it.each(ERROR_CODES)("%s: its message key exists, and an error without details is worded by it in both languages", (code) => {
    expect(isMessageKey(ERRORS[code].consoleKey)).toBe(true);
    expect(wordingOf(code)).toBe(ERRORS[code].consoleKey);
    // A bare APIError, as a newer server's code without a class would arrive: the table alone words it.
    const error = new APIError("The service's own sentence.", { code, status: ERRORS[code].status });
    for (const i18n of [zh, en]) {
      expect(explain(error, i18n)).toBe(i18n.t(wordingOf(code), { message: error.message, chars: "?", max: "?" }));
      expect(explain(error, i18n)).not.toBe(i18n.t("errGeneric", { message: error.message }));
    }
  });
});

describe("money as the console shows it", () => {
  it("keeps every non-zero decimal and at least two", () => {
    expect(formatYuan(0.99, "zh-CN")).toBe("0.99");
    expect(formatYuan(1, "zh-CN")).toBe("1.00");
    expect(formatYuan(0.00875, "en")).toBe("0.00875");
    expect(formatYuan(0.1 + 0.2, "en")).toBe("0.30");
    expect(formatMicro(12_000_500_000, "en")).toBe("12,000.50");
    expect(formatMicro(-10_000, "en")).toBe("-0.01");
  });

  it("names the price tier and what the next one takes", () => {
    expect(describeTier(zh, 100)).toEqual({ tier: "标准价（累计充值 500 元以下）", next: "再充值 400.00 元即享 1.90 元/万字。" });
    expect(describeTier(en, 500).tier).toBe("500 yuan or more recharged in total");
    expect(describeTier(en, 2500).next).toBe("This is the lowest price tier.");
  });
});
