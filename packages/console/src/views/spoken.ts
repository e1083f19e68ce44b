import type { Timing } from "@fangyan/client";
import { el } from "../dom.js";

/**
 * The clip's sentences under the player, the one being spoken marked
 * (`aria-current`) from the service's timings: on every frame while the audio
 * plays, and on a seek while it is paused. A sentence stays marked through
 * the pause after it, until the next one starts.
 */
export class SpokenSentence {
  #sentences: readonly Timing[] = [];
  #items: HTMLLIElement[] = [];
  #frame: number | undefined;

  constructor(
    private readonly player: HTMLAudioElement,
    private readonly list: HTMLOListElement,
  ) {
    const follow = () => {
      this.mark();
      this.#frame = player.paused ? undefined : requestAnimationFrame(follow);
    };
    player.addEventListener("play", () => {
      if (this.#frame === undefined) this.#frame = requestAnimationFrame(follow);
    });
    for (const event of ["timeupdate", "seeked", "pause", "ended"]) player.addEventListener(event, () => this.mark());
  }

  show(sentences: readonly Timing[], lang: string | undefined): void {
    this.#sentences = sentences;
    this.#items = sentences.map((sentence) => el("li", { lang }, sentence.text));
    this.list.replaceChildren(...this.#items);
    this.list.hidden = sentences.length === 0;
    this.mark();
  }

  private mark(): void {
    const ms = this.player.currentTime * 1000;
    let current = -1;
    this.#sentences.forEach((sentence, i) => {
      if (sentence.startMs <= ms) current = i;
    });
    // Before the first sentence and after the last one ends, nothing is being spoken.
    const last = this.#sentences.at(-1);
    if (last && ms > last.endMs) current = -1;
    this.#items.forEach((item, i) => {
      if (i === current) item.setAttribute("aria-current", "true");
      else item.removeAttribute("aria-current");
    });
  }
}
