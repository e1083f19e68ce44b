import { describeMp3 } from "@fangyan/mp3";

/** How long an MP3 plays, from its frames less the encoder delay and padding its Info tag states. */
export function playedMs(mp3: Uint8Array): number {
  const info = describeMp3(mp3);
  const samples = info.frames * info.samplesPerFrame - (info.encoderDelay ?? 0) - (info.encoderPadding ?? 0);
  return (samples * 1000) / info.sampleRate;
}

export async function fetchAudio(url: string): Promise<Uint8Array> {
  const response = await fetch(url);
  if (response.status !== 200) throw new Error(`audio answered ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}
