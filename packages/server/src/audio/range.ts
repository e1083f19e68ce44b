/**
 * One byte range of a Range header (RFC 9110, 14.1.2): `bytes=0-99`,
 * `bytes=100-` or the suffix `bytes=-500`. What cannot be parsed as one range
 * is ignored, as the RFC asks: the whole file is served with 200. Several
 * ranges are also answered with the whole file, which a server may do.
 */
export type ByteRange = { start: number; end: number | undefined } | { suffix: number };

export function parseRange(header: string | undefined): ByteRange | undefined {
  if (header === undefined) return undefined;
  const match = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header);
  if (!match) return undefined;
  const [, first = "", last = ""] = match;
  if (first === "" && last === "") return undefined;
  if (first === "") return { suffix: Number(last) };
  const start = Number(first);
  const end = last === "" ? undefined : Number(last);
  if (!Number.isSafeInteger(start) || (end !== undefined && (!Number.isSafeInteger(end) || end < start))) return undefined;
  return { start, end };
}

/** The inclusive byte positions a range selects in a file of `size` bytes, or undefined when it selects none (416). */
export function resolveRange(range: ByteRange, size: number): { start: number; end: number } | undefined {
  if ("suffix" in range) {
    if (range.suffix === 0 || size === 0) return undefined;
    return { start: Math.max(0, size - range.suffix), end: size - 1 };
  }
  if (range.start >= size) return undefined;
  return { start: range.start, end: Math.min(size - 1, range.end ?? size - 1) };
}

/** The header form, for a backend that parses ranges itself (S3). */
export function formatRange(range: ByteRange): string {
  return "suffix" in range ? `bytes=-${range.suffix}` : `bytes=${range.start}-${range.end ?? ""}`;
}
