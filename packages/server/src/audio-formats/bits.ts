/** An MSB-first bit writer and the CRCs FLAC frames carry. */

export class BitWriter {
  #bytes = new Uint8Array(4096);
  #length = 0;
  /** Bits waiting in the top of #acc, fewer than 8 after each write. */
  #acc = 0;
  #bits = 0;

  /** Writes the low `count` bits of `value` (count <= 24, or 32 in two halves by `writeLong`). */
  write(value: number, count: number): void {
    if (count === 0) return;
    this.#acc = (this.#acc << count) | (value & ((1 << count) - 1));
    this.#bits += count;
    while (this.#bits >= 8) {
      this.#bits -= 8;
      this.#push((this.#acc >>> this.#bits) & 0xff);
    }
    this.#acc &= (1 << this.#bits) - 1;
  }

  writeLong(value: number, count: number): void {
    if (count > 24) {
      this.write(Math.floor(value / 2 ** 24), count - 24);
      this.write(value % 2 ** 24, 24);
    } else {
      this.write(value, count);
    }
  }

  /** `count` zero bits then a one: the unary part of a Rice code. */
  unary(count: number): void {
    let left = count;
    while (left > 16) {
      this.write(0, 16);
      left -= 16;
    }
    this.write(1, left + 1);
  }

  alignToByte(): void {
    if (this.#bits > 0) this.write(0, 8 - this.#bits);
  }

  get byteLength(): number {
    return this.#length;
  }

  /** The whole bytes written since `start`. */
  bytes(start = 0): Uint8Array {
    return this.#bytes.subarray(start, this.#length);
  }

  #push(byte: number): void {
    if (this.#length === this.#bytes.length) {
      const grown = new Uint8Array(this.#bytes.length * 2);
      grown.set(this.#bytes);
      this.#bytes = grown;
    }
    this.#bytes[this.#length++] = byte;
  }
}

function table(width: 8 | 16, poly: number): Uint16Array {
  const out = new Uint16Array(256);
  const top = 1 << (width - 1);
  const mask = (1 << width) - 1;
  for (let i = 0; i < 256; i++) {
    let r = i << (width - 8);
    for (let bit = 0; bit < 8; bit++) r = (r & top ? (r << 1) ^ poly : r << 1) & mask;
    out[i] = r;
  }
  return out;
}

const crc8Table = table(8, 0x07);
const crc16Table = table(16, 0x8005);

export function crc8(bytes: Uint8Array): number {
  let crc = 0;
  for (const byte of bytes) crc = crc8Table[crc ^ byte] ?? 0;
  return crc;
}

export function crc16(bytes: Uint8Array): number {
  let crc = 0;
  for (const byte of bytes) crc = (((crc << 8) & 0xffff) ^ (crc16Table[(crc >>> 8) ^ byte] ?? 0)) & 0xffff;
  return crc;
}
