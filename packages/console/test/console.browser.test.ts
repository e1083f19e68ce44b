import { type ChildProcess, execFile, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import fs from "node:fs/promises";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/** Waits that include a server round trip or a synthesis: generous, because CI machines are shared. */
const POLL = { timeout: 30_000, interval: 100 };

/*
 * The console in a real browser against a real server: Debian's Chromium
 * (never a downloaded one) driven by playwright-core, and the `fangyan`
 * process as `npm start` runs it. With FANGYAN_SCREENSHOTS=1 the pages are
 * saved to docs/screenshots/ for the README.
 */

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const BIN = path.join(REPO_ROOT, "packages/server/bin/fangyan.js");
const CHROMIUM = "/usr/bin/chromium";
const ADMIN_TOKEN = "console-browser-test-admin-token";
const SCREENSHOTS = process.env.FANGYAN_SCREENSHOTS === "1" ? path.join(REPO_ROOT, "docs/screenshots") : undefined;
// On a developer machine without Chromium the suite is skipped; in CI a missing browser fails it.
const RUN = existsSync(CHROMIUM) || process.env.CI === "true";

const run = promisify(execFile);

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      const port = typeof address === "object" && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/** "0.99 元", "12,000.50 yuan" -> micro-yuan, without going through a float. */
function microOf(text: string | null): number {
  const match = /(-?[\d,]+)\.(\d+)/.exec(text ?? "");
  if (!match) throw new Error(`no amount in ${JSON.stringify(text)}`);
  const whole = Number((match[1] ?? "").replace(/,/g, ""));
  return whole * 1_000_000 + Number((match[2] ?? "").padEnd(6, "0"));
}

interface Customer {
  accountId: string;
  apiKey: string;
}

describe.skipIf(!RUN)("the web console in Chromium", () => {
  let dataDir: string;
  let origin: string;
  let server: ChildProcess;
  let output = "";
  let browser: Browser;

  const env = () => ({ ...process.env, FANGYAN_DATA_DIR: dataDir, FANGYAN_LOG_LEVEL: "warn" });

  /** A customer made as an operator makes one, with the admin command. */
  async function newCustomer(rechargeYuan: string, name = "茶餐厅"): Promise<Customer> {
    const { stdout } = await run(
      process.execPath,
      [BIN, "admin", "account", "create", "--name", name, "--recharge", rechargeYuan, "--json"],
      {
        cwd: REPO_ROOT,
        env: env(),
      },
    );
    const created = JSON.parse(stdout) as { account_id: string; api_key: string };
    return { accountId: created.account_id, apiKey: created.api_key };
  }

  function admin(pathname: string, init: RequestInit = {}): Promise<Response> {
    return fetch(`${origin}/admin/v1${pathname}`, {
      ...init,
      headers: { Authorization: `Bearer ${ADMIN_TOKEN}`, "Content-Type": "application/json" },
    });
  }

  async function balanceOnServer(accountId: string): Promise<number> {
    const account = (await (await admin(`/accounts/${accountId}`)).json()) as { balance_yuan: number };
    return Math.round(account.balance_yuan * 1_000_000);
  }

  /** A fresh tab (its own sessionStorage) that fails the test on any page error or CSP violation. */
  async function open(width = 1100, height = 900): Promise<{ page: Page; problems: string[] }> {
    const context = await browser.newContext({ viewport: { width, height } });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
    page.on("console", (message) => {
      if (message.type() === "error" && !message.text().includes("Failed to load resource")) problems.push(`console: ${message.text()}`);
    });
    await page.goto(`${origin}/`);
    return { page, problems };
  }

  async function connectKey(page: Page, apiKey: string): Promise<void> {
    await page.fill("#api-key", apiKey);
    await page.click("#connect");
    await page.locator("#key-connected").waitFor({ state: "visible" });
  }

  async function connectAdmin(page: Page): Promise<void> {
    await page.click("#tab-operators");
    await page.fill("#admin-token", ADMIN_TOKEN);
    await page.click("#admin-connect");
    await page.locator("#admin-area").waitFor({ state: "visible" });
  }

  async function screenshot(page: Page, name: string): Promise<void> {
    if (SCREENSHOTS) await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
  }

  beforeAll(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "fangyan-console-"));
    const port = await freePort();
    origin = `http://127.0.0.1:${port}`;
    server = spawn(process.execPath, [BIN], {
      cwd: REPO_ROOT,
      env: {
        ...env(),
        FANGYAN_PORT: String(port),
        FANGYAN_DEMO: "0",
        FANGYAN_SYNTHESIS_THREADS: "1",
        FANGYAN_ADMIN_TOKEN: ADMIN_TOKEN,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    server.stdout?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    server.stderr?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    const launched = chromium.launch({
      executablePath: CHROMIUM,
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    });
    const deadline = Date.now() + 30_000;
    for (;;) {
      if (server.exitCode !== null) throw new Error(`the server exited early:\n${output}`);
      const healthy = await fetch(`${origin}/healthz`).then(
        (answer) => answer.ok,
        () => false,
      );
      if (healthy) break;
      if (Date.now() > deadline) throw new Error(`the server did not become healthy:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    browser = await launched;
    if (SCREENSHOTS) await fs.mkdir(SCREENSHOTS, { recursive: true });
  });

  afterAll(async () => {
    await browser?.close();
    if (server && server.exitCode === null) {
      const exited = new Promise((resolve) => server.once("exit", resolve));
      server.kill("SIGTERM");
      await exited;
    }
    if (dataDir) await fs.rm(dataDir, { recursive: true, force: true });
  });

  it("with scripts blocked, submitting the key form posts it: the key is in no URL, and the page comes back", async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    try {
      const page = await context.newPage();
      const requests: Array<{ method: string; url: string }> = [];
      page.on("request", (request) => requests.push({ method: request.method(), url: request.url() }));
      await page.goto(`${origin}/`);
      const secret = "fy_NoScriptNoScriptNoScriptNoScript1";
      await page.fill("#api-key", secret);
      await Promise.all([page.waitForNavigation(), page.press("#api-key", "Enter")]);
      expect(requests.find((request) => request.method === "POST")?.url).toBe(`${origin}/`);
      expect(requests.map((request) => request.url).filter((url) => url.includes(secret) || url.includes("api-key"))).toEqual([]);
      expect(page.url()).toBe(`${origin}/`);
      expect(await page.isVisible("#api-key")).toBe(true);
    } finally {
      await context.close();
    }
  });

  it("a pasted key plays Cantonese speech, and the balance shown drops by exactly the amount billed", async () => {
    const customer = await newCustomer("1");
    const { page, problems } = await open();
    await connectKey(page, customer.apiKey);
    const before = microOf(await page.textContent("#balance"));
    expect(before).toBe(1_000_000);

    await page.selectOption("#dialect", { label: "粤语" });
    const cantonese = await page
      .locator("#voice option")
      .evaluateAll((options) => options.map((option) => (option instanceof HTMLOptionElement ? option.value : "")));
    expect(cantonese.length).toBeGreaterThan(0);
    expect(cantonese.every((id) => id.startsWith("yue-"))).toBe(true);
    await page.selectOption("#voice", "yue-male-1");
    // The dialect's first sample, in Traditional characters, is offered for a first try.
    expect(await page.inputValue("#text")).toBe("早晨！今日天氣好好，我哋去公園行下啦。");
    await page.fill("#text", "早晨！食咗飯未呀？今日天氣好好。");
    await expect.poll(() => page.textContent("#text-stats"), POLL).toContain("16 字 · 计费 50 字 · 费用 0.01 元");

    // Busy while synthesizing: watched from inside the page, since the answer can come quickly.
    await page.evaluate(() => {
      const button = document.getElementById("synthesize");
      const seen = { busy: false };
      Object.assign(window, { busySeen: seen });
      if (button)
        new MutationObserver(() => (seen.busy ||= button.getAttribute("aria-busy") === "true")).observe(button, { attributes: true });
    });
    await page.click("#synthesize");
    await page.waitForFunction(
      () => {
        const player = document.getElementById("player");
        return player instanceof HTMLAudioElement && Number.isFinite(player.duration) && player.duration > 0;
      },
      null,
      { timeout: 30_000 },
    );
    expect(await page.evaluate(() => (window as unknown as { busySeen: { busy: boolean } }).busySeen.busy)).toBe(true);
    const src = await page.getAttribute("#player", "src");
    expect(src).toMatch(new RegExp(`^${origin}/audio/[A-Za-z0-9_-]{22}\\.mp3$`));

    const message = (await page.textContent("#tts-message")) ?? "";
    expect(message).toContain("已合成：16 字，计费 50 字，扣费 0.01 元，余额 0.99 元。");
    const billed = microOf(/扣费 ([\d.]+ 元)/.exec(message)?.[1] ?? null);
    const after = microOf(await page.textContent("#balance"));
    expect(before - after).toBe(billed);
    expect(after).toBe(await balanceOnServer(customer.accountId));
    await expect.poll(() => page.locator("#clips li").count(), POLL).toBe(1);
    expect(await page.textContent("#clips li")).toContain("粤语男声");
    await screenshot(page, "playground");

    // The sentences under the player; the one at the playhead is marked, from the service's timings.
    await expect.poll(() => page.locator("#spoken li").allTextContents(), POLL).toEqual(["早晨！", "食咗飯未呀？", "今日天氣好好。"]);
    const vtt = await (await fetch(`${src?.replace(/\.mp3$/, "")}.vtt`)).text();
    const starts = [...vtt.matchAll(/^00:00:(\d{2}\.\d{3}) --> /gm)].map((match) => Number(match[1]));
    expect(starts).toHaveLength(3);
    for (const [i, start] of starts.entries()) {
      await page.evaluate((at) => {
        const player = document.getElementById("player");
        if (player instanceof HTMLAudioElement) player.currentTime = at;
      }, start + 0.05);
      await expect
        .poll(() => page.locator('#spoken li[aria-current="true"]').allTextContents(), POLL)
        .toEqual([["早晨！", "食咗飯未呀？", "今日天氣好好。"][i]]);
    }
    // The subtitles download as the service stores them beside the audio.
    const [srtDownload] = await Promise.all([page.waitForEvent("download"), page.click("#download-srt")]);
    expect(srtDownload.suggestedFilename()).toBe("fangyan-yue-male-1-1.srt");
    const srt = await fs.readFile(await srtDownload.path(), "utf8");
    expect(srt).toMatch(/^1\n00:00:00,\d{3} --> 00:00:\d{2},\d{3}\n早晨！\n\n2\n/);
    expect(srt).toBe(await (await fetch(`${src?.replace(/\.mp3$/, "")}.srt`)).text());
    expect(await page.isEnabled("#download-vtt")).toBe(true);

    await page.click("#tab-account");
    await expect.poll(() => page.textContent("#acct-balance"), POLL).toBe("0.99 元");
    expect(await page.textContent("#acct-consumed")).toBe("0.01 元");
    expect(await page.textContent("#acct-price")).toBe("2.00 元/万字");
    expect(await page.textContent("#acct-tier")).toBe("标准价（累计充值 500 元以下）");
    await screenshot(page, "account");
    expect(page.url()).not.toContain(customer.apiKey);
    expect(problems).toEqual([]);
  });

  it("a format picked next to Synthesize is what the player plays and the download saves: WAV, Opus and FLAC", async () => {
    const customer = await newCustomer("1");
    const { page, problems } = await open();
    await connectKey(page, customer.apiKey);
    expect(await page.inputValue("#format")).toBe("mp3");
    // PCM is left out: an <audio> element cannot play raw samples.
    expect(await page.locator("#format option").evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value))).toEqual([
      "mp3",
      "wav",
      "opus",
      "flac",
    ]);
    await page.fill("#text", "你好，世界。");
    for (const [format, label, magic] of [
      ["wav", "WAV", "RIFF"],
      ["opus", "Opus", "OggS"],
      ["flac", "FLAC", "fLaC"],
    ] as const) {
      await page.selectOption("#format", format);
      await page.click("#synthesize");
      // The player has the new file and knows how long it is: Chromium decoded it.
      await page.waitForFunction(
        (extension) => {
          const player = document.getElementById("player");
          return (
            player instanceof HTMLAudioElement && player.src.endsWith(extension) && Number.isFinite(player.duration) && player.duration > 0
          );
        },
        `.${format}`,
        { timeout: 30_000 },
      );
      expect(await page.getAttribute("#player", "src")).toMatch(new RegExp(`^${origin}/audio/[A-Za-z0-9_-]{22}\\.${format}$`));
      expect(await page.evaluate(() => (document.getElementById("player") as HTMLAudioElement).duration)).toBeGreaterThan(0.5);
      await expect.poll(() => page.textContent("#download"), POLL).toBe(`下载 ${label}`);
      const [saved] = await Promise.all([page.waitForEvent("download"), page.click("#download")]);
      expect(saved.suggestedFilename()).toMatch(new RegExp(`^fangyan-[a-z]+-[a-z]+-\\d+-\\d+\\.${format}$`));
      const bytes = await fs.readFile(await saved.path());
      expect(bytes.subarray(0, 4).toString("latin1")).toBe(magic);
    }
    // Each clip keeps its own format; English says the same.
    await expect
      .poll(() => page.locator("#clips li button").allTextContents(), POLL)
      .toEqual(["播放", "下载 FLAC", "播放", "下载 Opus", "播放", "下载 WAV"]);
    await page.click("#lang");
    await expect.poll(() => page.textContent("#download"), POLL).toBe("Download FLAC");
    expect(problems).toEqual([]);
  });

  it("an operator creates an account, recharges it, issues a key shown once, and pages through its ledger", async () => {
    const { page, problems } = await open();
    await connectAdmin(page);
    const name = "云吞面";
    await page.fill("#new-name", name);
    await page.fill("#new-recharge", "5");
    await page.click("#create");
    await page.locator("#new-key").waitFor({ state: "visible" });
    const firstKey = await page.inputValue("#new-key-value");
    expect(firstKey).toMatch(/^fy_[A-Za-z0-9_-]{32}$/);
    expect(await page.textContent("#manage-heading")).toBe(`管理账户：${name}`);
    await expect.poll(() => page.locator("#accounts tbody tr", { hasText: name }).count(), POLL).toBe(1);
    const accountId = (await page.locator("#manage-facts code").first().textContent()) ?? "";
    expect(accountId).toMatch(/^acct_/);

    await page.fill("#recharge-yuan", "10");
    await page.fill("#recharge-note", "发票 42");
    await page.click("#recharge");
    await expect.poll(() => page.textContent("#admin-message"), POLL).toContain(`已为 ${name} 充值 10.00 元，余额 15.00 元。`);
    expect(await page.textContent("#manage-facts")).toContain("15.00 元");
    await expect.poll(() => page.locator("#ledger tbody tr").count(), POLL).toBe(2);
    expect(await page.textContent("#ledger tbody tr:first-child")).toContain("+10.00 元");
    expect(await page.textContent("#ledger tbody tr:first-child")).toContain("发票 42");

    await page.click("#issue-key");
    await expect.poll(() => page.inputValue("#new-key-value"), POLL).not.toBe(firstKey);
    const secondKey = await page.inputValue("#new-key-value");
    expect(secondKey).toMatch(/^fy_[A-Za-z0-9_-]{32}$/);
    await expect.poll(() => page.locator("#keys tbody tr").count(), POLL).toBe(2);
    await screenshot(page, "operators");

    // Shown once: hidden, it is gone from the page.
    await page.click("#hide-key");
    expect(await page.isHidden("#new-key")).toBe(true);
    expect(await page.content()).not.toContain(secondKey);

    // The issued key works, and stops working with its account.
    const check = (key: string) => fetch(`${origin}/api/v1/account`, { headers: { "X-API-Key": key } }).then((answer) => answer.status);
    expect(await check(secondKey)).toBe(200);
    await page.click("#toggle-account");
    await expect.poll(() => page.textContent("#manage-facts"), POLL).toContain("已停用");
    expect(await check(secondKey)).toBe(401);
    await page.click("#toggle-account");
    await expect.poll(() => page.textContent("#manage-facts"), POLL).toContain("正常");
    expect(await check(secondKey)).toBe(200);
    await page.getByRole("button", { name: `停用密钥 ${secondKey.slice(0, 11)}` }).click();
    await expect.poll(() => check(secondKey), POLL).toBe(401);

    // Ten more entries: the newest ten on page 1, the first two on page 2.
    for (let i = 0; i < 10; i++) {
      expect((await admin(`/accounts/${accountId}/recharge`, { method: "POST", body: JSON.stringify({ yuan: "0.01" }) })).status).toBe(200);
    }
    await page.getByRole("button", { name: `管理账户 ${name}` }).click();
    await expect.poll(() => page.locator("#ledger tbody tr").count(), POLL).toBe(10);
    expect(await page.isVisible("#ledger-newest")).toBe(false);
    await page.click("#ledger-older");
    await expect.poll(() => page.textContent("#ledger-page"), POLL).toBe("第 2 页");
    expect(await page.locator("#ledger tbody tr").count()).toBe(2);
    expect(await page.textContent("#ledger tbody tr:last-child")).toContain("+5.00 元");
    expect(await page.isVisible("#ledger-older")).toBe(false);
    await page.click("#ledger-newest");
    await expect.poll(() => page.locator("#ledger tbody tr").count(), POLL).toBe(10);
    expect(problems).toEqual([]);
  });

  it("a balance too small for the text says what was needed and what is available, in either language", async () => {
    const customer = await newCustomer("0.01", "小店");
    const { page, problems } = await open();
    await connectKey(page, customer.apiKey);
    await page.fill("#text", "今天天气很好，去公园吧。".repeat(5));
    await expect.poll(() => page.textContent("#text-stats"), POLL).toContain("60 字 · 计费 100 字 · 费用 0.02 元");
    await page.click("#synthesize");
    const alert = page.locator("#tts-message[role=alert]");
    await alert.waitFor();
    expect(await alert.textContent()).toMatch(/^余额不足：需要 0\.02 元，余额 0\.01 元。请充值后再试。（请求编号 req_[\w-]+）$/);
    expect(microOf(await page.textContent("#balance"))).toBe(10_000);
    await screenshot(page, "error");

    await page.click("#lang");
    expect(await page.getAttribute("html", "lang")).toBe("en");
    await page.click("#synthesize");
    await expect.poll(() => alert.textContent(), POLL).toContain("Not enough balance: this needs 0.02 yuan, the balance is 0.01 yuan.");

    // The key and the language stay for this tab only, and "forget" drops the key.
    await page.reload();
    await page.locator("#key-connected").waitFor({ state: "visible" });
    expect(await page.textContent("#tab-playground")).toBe("Playground");
    expect(await page.evaluate(() => sessionStorage.getItem("fangyan.apiKey"))).toBe(customer.apiKey);
    expect(await page.evaluate(() => localStorage.length)).toBe(0);
    await page.click("#forget-key");
    expect(await page.evaluate(() => sessionStorage.getItem("fangyan.apiKey"))).toBeNull();
    expect(await page.isVisible("#key-form")).toBe(true);
    expect(problems).toEqual([]);
  });

  it("at phone width (375 px) no page scrolls sideways", async () => {
    const customer = await newCustomer("1", "手机用户");
    const { page, problems } = await open(375, 812);
    await connectKey(page, customer.apiKey);
    const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(await overflow()).toBe(0);
    await screenshot(page, "phone");
    await page.click("#tab-account");
    await page.locator("#account-body").waitFor({ state: "visible" });
    expect(await overflow()).toBe(0);
    await connectAdmin(page);
    await page.getByRole("button", { name: "管理账户 手机用户" }).first().click();
    await expect.poll(() => page.locator("#ledger tbody tr").count(), POLL).toBeGreaterThan(0);
    expect(await overflow()).toBe(0);
    expect(problems).toEqual([]);
  });

  it("every control has an accessible name, and the tabs work from the keyboard", async () => {
    const customer = await newCustomer("1", "读屏用户");
    const { page, problems } = await open();
    await connectKey(page, customer.apiKey);
    await page.click("#synthesize");
    await page.locator("#clips li").waitFor();
    await connectAdmin(page);
    await page.getByRole("button", { name: "管理账户 读屏用户" }).first().click();
    await expect.poll(() => page.locator("#keys tbody tr").count(), POLL).toBe(1);

    const unnamed = await page.evaluate(() => {
      const text = (node: Node | null) => node?.textContent?.trim() ?? "";
      const nameOf = (control: HTMLElement): string => {
        const labelledBy = control.getAttribute("aria-labelledby");
        if (labelledBy)
          return labelledBy
            .split(/\s+/)
            .map((id) => text(document.getElementById(id)))
            .join(" ");
        const label = control.getAttribute("aria-label");
        if (label?.trim()) return label;
        const labels = "labels" in control && control.labels instanceof NodeList ? Array.from(control.labels).map(text).join(" ") : "";
        if (labels) return labels;
        return control instanceof HTMLButtonElement ? text(control) : (control.getAttribute("title") ?? "");
      };
      return Array.from(document.querySelectorAll<HTMLElement>("input, select, textarea, button, audio"))
        .filter((control) => nameOf(control).trim() === "")
        .map((control) => control.outerHTML.slice(0, 120));
    });
    expect(unnamed).toEqual([]);

    await page.focus("#tab-operators");
    await page.keyboard.press("ArrowLeft");
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("tab-account");
    expect(await page.getAttribute("#tab-account", "aria-selected")).toBe("true");
    expect(await page.isVisible("#panel-account")).toBe(true);
    await page.keyboard.press("Home");
    expect(await page.isVisible("#panel-playground")).toBe(true);
    // Ctrl+Enter in the text synthesizes.
    await page.fill("#text", "你好");
    await page.press("#text", "Control+Enter");
    await expect.poll(() => page.locator("#clips li").count(), POLL).toBe(2);
    expect(problems).toEqual([]);
  });
});
