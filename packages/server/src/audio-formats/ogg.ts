/**
 * Ogg pages (RFC 3533) for one logical stream, as Ogg Opus (RFC 7845) lays
 * them out: every page ends on a packet boundary, so a page's granule
 * position is always that of its last packet.
 */

import { concatBytes } from "./format.js";

const crcTable = (() => {
  const table = new Uint32Array(256);
  for (let i = 0; i < 256; i++) {
    let r = i << 24;
    for (let bit = 0; bit < 8; bit++) r = r & 0x8000_0000 ? (r << 1) ^ 0x04c1_1db7 : r << 1;
    table[i] = r >>> 0;
  }
  return table;
})();

function oggCrc(bytes: Uint8Array): number {
  let crc = 0;
  for (const byte of bytes) crc = ((crc << 8) ^ (crcTable[((crc >>> 24) ^ byte) & 0xff] ?? 0)) >>> 0;
  return crc;
}

export const pageFlags = { continued: 1, first: 2, last: 4 } as const;

export class OggWriter {
  readonly #serial: number;
  #sequence = 0;

  constructor(serial: number) {
    this.#serial = serial >>> 0;
  }

  /** One page holding whole packets; at most 255 lacing values, so a caller splits long runs. */
  page(packets: readonly Uint8Array[], granule: number, flags: number): Uint8Array {
    const lacing: number[] = [];
    for (const packet of packets) {
      let left = packet.length;
      while (left >= 255) {
        lacing.push(255);
        left -= 255;
      }
      lacing.push(left);
    }
    if (lacing.length > 255) throw new Error("An Ogg page holds at most 255 segments");
    const header = new Uint8Array(27 + lacing.length);
    const view = new DataView(header.buffer);
    header.set([0x4f, 0x67, 0x67, 0x53]); // "OggS"
    header[4] = 0;
    header[5] = flags;
    view.setBigInt64(6, BigInt(granule), true);
    view.setUint32(14, this.#serial, true);
    view.setUint32(18, this.#sequence++, true);
    header[26] = lacing.length;
    header.set(lacing, 27);
    const page = concatBytes([header, ...packets]);
    new DataView(page.buffer, page.byteOffset, page.byteLength).setUint32(22, oggCrc(page), true);
    return page;
  }
}

/** Lacing values a packet takes on a page. */
export function segmentsOf(packet: Uint8Array): number {
  return Math.floor(packet.length / 255) + 1;
}
