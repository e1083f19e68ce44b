/**
 * An independent reading of the LAME tag's two checksums, for checking ours
 * against: CRC-16/ARC (polynomial 0x8005 reflected, initial value 0) computed
 * bit by bit from its catalogue definition, sharing no code or table with
 * `crc16` in src/xing.ts. Its catalogue check value ("123456789" -> 0xBB3D)
 * and the fields Debian's `lame` wrote into test/fixtures/*.mp3 pin it.
 */
import { iterateFrames, xingTagOffset } from "../../src/index.js";

export function referenceCrc16Arc(bytes: Uint8Array): number {
  let crc = 0;
  for (const byte of bytes) {
    for (let bit = 0; bit < 8; bit++) {
      const mix = (crc ^ (byte >> bit)) & 1;
      crc >>>= 1;
      if (mix) crc ^= 0xa001;
    }
  }
  return crc;
}

export interface LameTagChecksums {
  /** Stored "music CRC": of every byte after the tag's frame. */
  musicCrc: number;
  /** Stored "tag CRC": of the tag's frame up to this field (its first 190 bytes for MPEG-2 mono). */
  tagCrc: number;
  /** What the reference computes for the same two ranges. */
  expectedMusicCrc: number;
  expectedTagCrc: number;
}

/** The two CRC fields of the LAME tag in the first frame of `mp3`, and what they should hold. */
export function lameTagChecksums(mp3: Uint8Array): LameTagChecksums {
  const first = iterateFrames(mp3).next().value;
  if (!first) throw new Error("no frame");
  const lame = first.offset + xingTagOffset(first.header) + 120;
  const view = new DataView(mp3.buffer, mp3.byteOffset, mp3.byteLength);
  return {
    musicCrc: view.getUint16(lame + 32),
    tagCrc: view.getUint16(lame + 34),
    expectedMusicCrc: referenceCrc16Arc(mp3.subarray(first.offset + first.header.length)),
    expectedTagCrc: referenceCrc16Arc(mp3.subarray(first.offset, lame + 34)),
  };
}
