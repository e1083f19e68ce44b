/** The part of sherpa-onnx-node (which ships no types) that Fangyan uses: offline TTS. */
declare module "sherpa-onnx-node" {
  export interface OfflineTtsConfig {
    model: {
      vits?: { model: string; tokens: string; lexicon?: string; dataDir?: string; dictDir?: string; lengthScale?: number };
      matcha?: { acousticModel: string; vocoder: string; tokens: string; lexicon?: string; dataDir?: string; dictDir?: string };
      kokoro?: { model: string; voices: string; tokens: string; dataDir?: string; dictDir?: string; lexicon?: string; lang?: string };
      numThreads?: number;
      debug?: boolean | number;
      provider?: string;
    };
    ruleFsts?: string;
    ruleFars?: string;
    maxNumSentences?: number;
  }

  export interface GeneratedAudio {
    samples: Float32Array;
    sampleRate: number;
  }

  export class OfflineTts {
    constructor(config: OfflineTtsConfig);
    readonly numSpeakers: number;
    readonly sampleRate: number;
    generate(request: { text: string; sid: number; speed: number }): GeneratedAudio;
  }
}
