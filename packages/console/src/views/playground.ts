import {
  AUDIO_FORMATS,
  type AudioFormatName,
  estimateCost,
  isAudioFormatName,
  MAX_TEXT_CHARS,
  type TtsParams,
  type Voice,
  type VoiceList,
} from "@fangyan/client";
import { billableChars, countChars, isSsml, toVtt } from "@fangyan/protocol";
import type { Context } from "../context.js";
import { dialectLabel, voiceLabel } from "../dialects.js";
import { byId, el, say, whileBusy } from "../dom.js";
import { explain } from "../explain.js";
import { formatYuan, toMicro, yuanText } from "../money.js";
import { isSample, samplesFor } from "../samples.js";
import { type Clip, ClipList, clipFileName, formatLabel } from "./clips.js";
import { SpokenSentence } from "./spoken.js";

const CONTROLS = ["speed", "pitch", "volume"] as const;

/**
 * The playground: dialect, voice, text with its live count and cost, the
 * voice controls, and a Synthesize button that plays the answer and adds it
 * to this session's clips.
 */
export function setUpPlayground(ctx: Context): void {
  const { i18n, customer } = ctx;
  const form = byId("tts-form", HTMLFormElement);
  const dialect = byId("dialect", HTMLSelectElement);
  const voice = byId("voice", HTMLSelectElement);
  const samples = byId("samples", HTMLElement);
  const samplesBox = byId("samples-box", HTMLFieldSetElement);
  const text = byId("text", HTMLTextAreaElement);
  const stats = byId("text-stats", HTMLElement);
  const synthesize = byId("synthesize", HTMLButtonElement);
  const formatPicker = byId("format", HTMLSelectElement);
  const message = byId("tts-message", HTMLElement);
  const player = byId("player", HTMLAudioElement);
  const captions = byId("captions", HTMLTrackElement);
  const download = byId("download", HTMLButtonElement);
  const downloadSrt = byId("download-srt", HTMLButtonElement);
  const downloadVtt = byId("download-vtt", HTMLButtonElement);
  const spoken = byId("spoken", HTMLOListElement);
  const sliders = CONTROLS.map((name) => ({ name, input: byId(name, HTMLInputElement), output: byId(`${name}-out`, HTMLOutputElement) }));

  let chosenDialect: string | undefined;
  let chosenVoice: string | undefined;
  let shownVoices: VoiceList | undefined;
  let busy = false;

  const groups = (): Record<string, Voice[]> => customer.connection?.voices.byDialect ?? {};
  const voicesOfDialect = (): Voice[] => (chosenDialect ? (groups()[chosenDialect] ?? []) : []);
  const dialectCode = (): string | undefined => voicesOfDialect()[0]?.dialectCode;

  const clips = new ClipList(byId("clips", HTMLOListElement), byId("clips-empty", HTMLElement), i18n, {
    play: (clip) => play(clip),
    download: (clip, button) => void saveAudio(clip, button),
  });
  const playing = new SpokenSentence(player, spoken);

  function renderPickers(): void {
    const all = groups();
    const names = Object.keys(all);
    if (!chosenDialect || !names.includes(chosenDialect)) chosenDialect = names[0];
    dialect.replaceChildren(...names.map((name) => el("option", { value: name }, dialectLabel(i18n, name, all[name]?.[0]?.dialectCode))));
    dialect.value = chosenDialect ?? "";
    dialect.disabled = names.length === 0;
    const voices = voicesOfDialect();
    if (!chosenVoice || !voices.some((entry) => entry.id === chosenVoice)) chosenVoice = voices[0]?.id;
    voice.replaceChildren(...voices.map((entry) => el("option", { value: entry.id }, voiceLabel(i18n, entry))));
    voice.value = chosenVoice ?? "";
    voice.disabled = voices.length === 0;
  }

  function renderSamples(): void {
    const code = dialectCode();
    // The text's language follows the dialect: fonts pick the right glyphs, screen readers the right voice.
    text.lang = code ?? "zh";
    const sentences = samplesFor(code);
    samplesBox.hidden = sentences.length === 0;
    samples.replaceChildren(
      ...sentences.map((sentence) => {
        const button = el("button", { type: "button", lang: code, "aria-label": i18n.t("sampleTry", { text: sentence }) }, sentence);
        button.addEventListener("click", () => {
          text.value = sentence;
          renderStats();
          text.focus();
        });
        return button;
      }),
    );
  }

  /** Offers the dialect's first sample when the text is empty or is still another dialect's sample. */
  function offerSample(): void {
    const first = samplesFor(dialectCode())[0];
    if (first && (text.value.trim() === "" || isSample(text.value))) text.value = first;
  }

  function renderStats(): void {
    const value = text.value;
    const raw = countChars(value);
    const billable = raw === 0 ? 0 : billableChars(raw);
    const account = customer.connection?.account;
    let line: string;
    let warning: string | undefined;
    if (account) {
      const cost = raw === 0 ? 0 : estimateCost(value, account.pricePerWanYuan);
      line =
        i18n.t("stats", { raw, billable, cost: yuanText(i18n, cost) }) +
        i18n.t("statsPrice", { price: formatYuan(account.pricePerWanYuan, i18n.locale) });
      if (toMicro(cost) > toMicro(account.balanceYuan)) warning = i18n.t("statsShort");
    } else {
      line = i18n.t("statsNoPrice", { raw, billable });
    }
    if (raw > MAX_TEXT_CHARS) warning = i18n.t("statsTooLong");
    // The service reads a text that starts with <speak as SSML: say so, and how it is billed.
    const ssml = isSsml(value) ? [" ", el("span", { class: "ssml" }, i18n.t("statsSsml"))] : [];
    stats.replaceChildren(line, ...ssml, ...(warning ? [" ", el("span", { class: "warn" }, warning)] : []));
    synthesize.disabled = busy || raw > MAX_TEXT_CHARS;
  }

  function renderSliders(): void {
    for (const { input, output } of sliders) output.value = Number(input.value).toFixed(2);
  }

  /** Only the controls moved away from 1.0 are sent: the service's defaults need no field. */
  function controlValues(): Pick<TtsParams, "speed" | "pitch" | "volume"> {
    const values: Pick<TtsParams, "speed" | "pitch" | "volume"> = {};
    for (const { name, input } of sliders) {
      const value = Number(input.value);
      if (value !== 1) values[name] = value;
    }
    return values;
  }

  /**
   * The format picked next to Synthesize. PCM is not offered: an <audio>
   * element cannot play raw samples, and the console is for listening.
   */
  function chosenFormat(): AudioFormatName {
    return isAudioFormatName(formatPicker.value) ? formatPicker.value : "mp3";
  }

  /** "Download WAV": the current clip's format, or the picked one before any clip. */
  function renderDownloadLabel(): void {
    if (download.getAttribute("aria-busy") === "true") return;
    download.textContent = i18n.t("download", { format: formatLabel(clips.current?.format ?? chosenFormat()) });
  }

  function saveAudio(clip: Clip, button: HTMLButtonElement): void {
    const idle = () => i18n.t("download", { format: formatLabel(clip.format) });
    void save(clip.audioUrl, AUDIO_FORMATS[clip.format].contentType, clipFileName(clip), button, idle);
  }

  function play(clip: Clip): void {
    clips.setCurrent(clip);
    // The text as captions: one cue for the whole clip, from a blob (media-src allows blob:).
    if (captions.src.startsWith("blob:")) URL.revokeObjectURL(captions.src);
    captions.srclang = clip.dialectCode ?? "zh";
    const sentences = clip.timings?.sentences ?? [];
    const vtt =
      sentences.length > 0 ? toVtt(sentences.map((s) => ({ text: s.text, start_ms: s.startMs, end_ms: s.endMs }))) : captionsOf(clip.text);
    captions.src = URL.createObjectURL(new Blob([vtt], { type: "text/vtt" }));
    playing.show(sentences, clip.dialectCode);
    player.src = clip.audioUrl;
    player.load();
    download.disabled = false;
    renderDownloadLabel();
    downloadSrt.disabled = clip.subtitles === undefined;
    downloadVtt.disabled = clip.subtitles === undefined;
    // Browsers may refuse to start sound without a recent click; the controls are there either way.
    player.play().catch(() => undefined);
  }

  /** Saves the file at a capability URL (the audio, or its subtitles) under `name`. */
  async function save(fileUrl: string, type: string, name: string, button: HTMLButtonElement, idleText: () => string): Promise<void> {
    const connection = customer.connection;
    if (!connection) {
      say(message, i18n.t("connectFirst"), "error");
      return;
    }
    await whileBusy(button, i18n.t("downloading"), idleText, async () => {
      try {
        // The client fetches the audio URL without the key: the URL itself is the capability.
        const bytes = await connection.client.download(fileUrl);
        const url = URL.createObjectURL(new Blob([bytes.slice()], { type }));
        const link = el("a", { href: url, download: name });
        document.body.append(link);
        link.click();
        link.remove();
        setTimeout(() => URL.revokeObjectURL(url), 60_000);
      } catch (error) {
        say(message, explain(error, i18n), "error");
      }
    });
  }

  async function run(): Promise<void> {
    const connection = customer.connection;
    if (!connection) {
      say(message, i18n.t("connectFirst"), "error");
      byId("api-key", HTMLInputElement).focus();
      return;
    }
    const value = text.value;
    if (value.trim() === "") {
      say(message, i18n.t("enterText"), "error");
      text.focus();
      return;
    }
    const chosen = voicesOfDialect().find((entry) => entry.id === chosenVoice);
    if (!chosen) {
      say(message, i18n.t("chooseVoice"), "error");
      voice.focus();
      return;
    }
    busy = true;
    form.setAttribute("aria-busy", "true");
    say(message, "");
    await whileBusy(
      synthesize,
      i18n.t("synthesizing"),
      () => i18n.t("synthesize"),
      async () => {
        try {
          // Timings cost nothing more: the player highlights each sentence as it is spoken.
          const format = chosenFormat();
          const result = await connection.client.tts({ text: value, voiceId: chosen.id, ...controlValues(), format, timings: true });
          customer.charged(result.billing);
          const clip = clips.add({
            text: value,
            voiceId: chosen.id,
            voiceName: chosen.name,
            dialectCode: chosen.dialectCode,
            audioUrl: result.audioUrl,
            format,
            billing: result.billing,
            at: new Date(),
            timings: result.timings,
            subtitles: result.subtitles,
          });
          play(clip);
          const { billing } = result;
          say(
            message,
            i18n.t("synthesized", {
              raw: billing.rawChars,
              billable: billing.billableChars,
              cost: yuanText(i18n, billing.costYuan),
              balance: yuanText(i18n, billing.balanceAfterYuan),
            }),
          );
        } catch (error) {
          say(message, explain(error, i18n), "error");
        }
      },
    );
    busy = false;
    form.removeAttribute("aria-busy");
    renderStats();
  }

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    if (!busy) void run();
  });
  text.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      form.requestSubmit();
    }
  });
  text.addEventListener("input", renderStats);
  dialect.addEventListener("change", () => {
    chosenDialect = dialect.value;
    chosenVoice = undefined;
    renderPickers();
    renderSamples();
    offerSample();
    renderStats();
  });
  voice.addEventListener("change", () => {
    chosenVoice = voice.value;
  });
  for (const { input } of sliders) input.addEventListener("input", renderSliders);
  byId("reset-controls", HTMLButtonElement).addEventListener("click", () => {
    for (const { input } of sliders) input.value = "1";
    renderSliders();
  });
  download.addEventListener("click", () => {
    const current = clips.current;
    if (current) saveAudio(current, download);
  });
  for (const [button, kind, type, label] of [
    [downloadSrt, "srt", "application/x-subrip", "downloadSrt"],
    [downloadVtt, "vtt", "text/vtt", "downloadVtt"],
  ] as const) {
    button.addEventListener("click", () => {
      const current = clips.current;
      const url = current?.subtitles?.[kind];
      if (current && url) void save(url, type, `fangyan-${current.voiceId}-${current.id}.${kind}`, button, () => i18n.t(label));
    });
  }

  customer.onChange(() => {
    const voices = customer.connection?.voices;
    // A charge changes only the balance; the pickers are rebuilt only for a new voice list.
    if (voices !== shownVoices) {
      shownVoices = voices;
      renderPickers();
      renderSamples();
      offerSample();
    }
    renderStats();
  });
  formatPicker.addEventListener("change", renderDownloadLabel);
  i18n.onChange(() => {
    renderDownloadLabel();
    renderPickers();
    renderSamples();
    renderStats();
    clips.render();
  });
  renderPickers();
  renderSamples();
  renderSliders();
  renderStats();
  renderDownloadLabel();
  clips.render();
}

/** WebVTT with the whole text as one cue; cue text must not contain markup or an arrow. */
function captionsOf(text: string): string {
  // SSML's words without its tags.
  const words = isSsml(text) ? text.replace(/<[^>]*>/g, "").trim() : text;
  const cue = words
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/\r\n?/g, "\n")
    .replace(/\n\s*\n/g, "\n");
  return `WEBVTT\n\n00:00:00.000 --> 99:59:59.000\n${cue}\n`;
}
