import type { AudioFormatName, Billing, Subtitles, Timings } from "@fangyan/client";
import { AUDIO_FORMATS } from "@fangyan/client";
import { el } from "../dom.js";
import type { I18n } from "../i18n/i18n.js";
import { yuanText } from "../money.js";

export interface Clip {
  id: number;
  text: string;
  voiceId: string;
  voiceName: string;
  /** ISO 639-3 ("yue", "cmn"), also a valid `lang` attribute. */
  dialectCode: string | undefined;
  audioUrl: string;
  /** The format the clip was asked in: its file's extension and Content-Type. */
  format: AudioFormatName;
  billing: Billing;
  at: Date;
  /** Where each sentence is heard, and the subtitle files: the console always asks for them (same price). */
  timings?: Timings | undefined;
  subtitles?: Subtitles | undefined;
}

export interface ClipActions {
  play(clip: Clip): void;
  download(clip: Clip, button: HTMLButtonElement): void;
}

const EXCERPT_CHARS = 40;

/** How a format is written for people: MP3, WAV, Opus, FLAC (the same in both languages). */
export function formatLabel(format: AudioFormatName): string {
  return format === "opus" ? "Opus" : format.toUpperCase();
}

/** The file name a clip downloads under: the format's own extension. */
export function clipFileName(clip: Clip): string {
  return `fangyan-${clip.voiceId}-${clip.id}.${AUDIO_FORMATS[clip.format].extension}`;
}

function excerpt(text: string): string {
  const chars = [...text];
  return chars.length > EXCERPT_CHARS ? `${chars.slice(0, EXCERPT_CHARS).join("")}…` : text;
}

/** This session's clips, newest first; they live only in the page (audio URLs expire anyway). */
export class ClipList {
  readonly #clips: Clip[] = [];
  #current: number | undefined;

  constructor(
    private readonly list: HTMLOListElement,
    private readonly empty: HTMLElement,
    private readonly i18n: I18n,
    private readonly actions: ClipActions,
  ) {}

  add(clip: Omit<Clip, "id">): Clip {
    const added = { ...clip, id: this.#clips.length + 1 };
    this.#clips.unshift(added);
    this.#current = added.id;
    this.render();
    return added;
  }

  get current(): Clip | undefined {
    return this.#clips.find((clip) => clip.id === this.#current);
  }

  setCurrent(clip: Clip): void {
    this.#current = clip.id;
    this.render();
  }

  render(): void {
    const { i18n } = this;
    this.empty.hidden = this.#clips.length > 0;
    this.list.replaceChildren(
      ...this.#clips.map((clip) => {
        const short = excerpt(clip.text);
        const play = el("button", { type: "button", "aria-label": i18n.t("clipPlayLabel", { text: short }) }, i18n.t("clipPlay"));
        play.addEventListener("click", () => this.actions.play(clip));
        const download = el(
          "button",
          { type: "button", "aria-label": i18n.t("clipDownloadLabel", { text: short }) },
          i18n.t("download", { format: formatLabel(clip.format) }),
        );
        download.addEventListener("click", () => this.actions.download(clip, download));
        const meta = i18n.t("clipMeta", {
          voice: clip.voiceName,
          billable: clip.billing.billableChars,
          cost: yuanText(i18n, clip.billing.costYuan),
          time: clip.at.toLocaleTimeString(i18n.locale, { hour12: false }),
        });
        return el(
          "li",
          { "aria-current": clip.id === this.#current ? "true" : undefined },
          el("p", { class: "clip-text", lang: clip.dialectCode ?? "zh" }, short),
          el("p", { class: "clip-meta" }, meta),
          el("div", { class: "row" }, play, download),
        );
      }),
    );
  }
}
