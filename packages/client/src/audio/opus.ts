import { FangyanError } from "../core/errors.js";

/*
 * The length of an Ogg Opus file (RFC 7845): the last page's granule position,
 * less the pre-skip of the OpusHead, in 48 kHz samples. The service's last page
 * trims the encoder's padding, also in a file fetched while it is being streamed.
 */

const OPUS_RATE = 48_000;

function isPageAt(bytes: Uint8Array, offset: number): boolean {
  return (
    bytes[offset] === 0x4f &&
    bytes[offset + 1] === 0x67 &&
    bytes[offset + 2] === 0x67 &&
    bytes[offset + 3] === 0x53 &&
    bytes[offset + 4] === 0
  );
}

/** The page's length from its segment table, or undefined when the header runs past the end. */
function pageLength(bytes: Uint8Array, offset: number): number | undefined {
  const segments = bytes[offset + 26];
  if (segments === undefined || offset + 27 + segments > bytes.length) return undefined;
  let length = 27 + segments;
  for (let i = 0; i < segments; i++) length += bytes[offset + 27 + i] ?? 0;
  return length;
}

export function opusSamples(bytes: Uint8Array): number {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const first = pageLength(bytes, 0);
  const head = first === undefined ? -1 : 27 + (bytes[26] ?? 0);
  if (!isPageAt(bytes, 0) || head < 0 || String.fromCharCode(...bytes.subarray(head, head + 8)) !== "OpusHead") {
    throw new FangyanError("The audio is not an Ogg Opus file (no OpusHead)");
  }
  const preSkip = view.getUint16(head + 10, true);
  // The last page is the one that ends exactly at the end of the file.
  for (let offset = bytes.length - 27; offset >= 0; offset--) {
    if (!isPageAt(bytes, offset) || pageLength(bytes, offset) !== bytes.length - offset) continue;
    const granule = Number(view.getBigUint64(offset + 6, true));
    return Math.max(0, granule - preSkip);
  }
  throw new FangyanError("The Ogg Opus file has no complete last page");
}

export function opusDurationMs(bytes: Uint8Array): number {
  return (opusSamples(bytes) * 1000) / OPUS_RATE;
}
