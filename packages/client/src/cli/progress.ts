import type { LongTtsProgress } from "../long.js";
import type { Terminal } from "./context.js";
import { count } from "./format.js";

const BAR_WIDTH = 24;

/**
 * A one-line progress bar on a terminal: requests done, characters done and
 * time so far, redrawn in place. Nothing at all when the stream is not a
 * terminal, so that logs and pipes stay clean.
 */
export class ProgressBar {
  private last: LongTtsProgress | undefined;
  private timer: ReturnType<typeof setInterval> | undefined;
  private readonly started = Date.now();

  constructor(private readonly stream: Terminal) {}

  get enabled(): boolean {
    return this.stream.isTTY === true;
  }

  update(progress: LongTtsProgress): void {
    if (!this.enabled) return;
    this.last = progress;
    if (!this.timer) {
      // Redrawn every second as well, so the clock shows that a long request is still going.
      this.timer = setInterval(() => this.draw(), 1000);
      this.timer.unref();
    }
    this.draw();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    if (this.enabled && this.last) this.stream.write("\r\x1b[K");
  }

  private draw(): void {
    const progress = this.last;
    if (!progress) return;
    const filled = progress.chars === 0 ? 0 : Math.round((progress.charsDone / progress.chars) * BAR_WIDTH);
    const bar = "█".repeat(filled) + "░".repeat(BAR_WIDTH - filled);
    const seconds = Math.floor((Date.now() - this.started) / 1000);
    const requests = progress.parts === 1 ? "1 request" : `${progress.partsDone}/${progress.parts} requests`;
    const line = `${bar} ${requests} · ${count(progress.charsDone)}/${count(progress.chars)} characters · ${seconds} s`;
    this.stream.write(`\r${line}\x1b[K`);
  }
}
