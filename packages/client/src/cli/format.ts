/** Text for people: amounts, sizes, durations, and columns that line up with Chinese in them. */

/** Yuan as the service states them, without float noise: 0.00875, 2.41, 10. */
export function yuan(amount: number): string {
  return `${Number(amount.toFixed(6))} yuan`;
}

export function yuanFromCents(cents: number): string {
  return yuan(cents / 100);
}

export function count(n: number): string {
  return n.toLocaleString("en-US");
}

export function bytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

export function duration(ms: number): string {
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const totalSeconds = Math.round(ms / 1000);
  const hours = Math.floor(totalSeconds / 3600);
  const minutes = Math.floor((totalSeconds % 3600) / 60);
  const seconds = totalSeconds % 60;
  return hours > 0 ? `${hours} h ${minutes} min ${seconds} s` : `${minutes} min ${seconds} s`;
}

/** Columns a character takes in a terminal: 2 for CJK and other wide characters. */
function charWidth(codePoint: number): number {
  if (codePoint < 0x1100) return 1;
  const wide =
    codePoint <= 0x115f || // Hangul Jamo
    (codePoint >= 0x2e80 && codePoint <= 0x303e) || // CJK radicals, punctuation
    (codePoint >= 0x3041 && codePoint <= 0x33ff) || // kana, CJK symbols
    (codePoint >= 0x3400 && codePoint <= 0x4dbf) || // CJK extension A
    (codePoint >= 0x4e00 && codePoint <= 0x9fff) || // CJK unified ideographs
    (codePoint >= 0xa000 && codePoint <= 0xa4cf) || // Yi
    (codePoint >= 0xac00 && codePoint <= 0xd7a3) || // Hangul syllables
    (codePoint >= 0xf900 && codePoint <= 0xfaff) || // CJK compatibility ideographs
    (codePoint >= 0xfe30 && codePoint <= 0xfe4f) || // CJK compatibility forms
    (codePoint >= 0xff00 && codePoint <= 0xff60) || // full-width forms
    (codePoint >= 0xffe0 && codePoint <= 0xffe6) ||
    (codePoint >= 0x1f300 && codePoint <= 0x1faff) || // emoji
    (codePoint >= 0x20000 && codePoint <= 0x3fffd); // CJK extensions B and later
  return wide ? 2 : 1;
}

export function displayWidth(text: string): number {
  let width = 0;
  for (const char of text) width += charWidth(char.codePointAt(0) ?? 0);
  return width;
}

export function padEnd(text: string, width: number): string {
  return text + " ".repeat(Math.max(0, width - displayWidth(text)));
}

/** Rows of cells as aligned columns, two spaces apart, with `indent` before each row. */
export function columns(rows: readonly (readonly string[])[], indent = ""): string[] {
  const widths: number[] = [];
  for (const row of rows) {
    for (const [i, cell] of row.entries()) widths[i] = Math.max(widths[i] ?? 0, displayWidth(cell));
  }
  return rows.map((row) => indent + row.map((cell, i) => (i === row.length - 1 ? cell : padEnd(cell, widths[i] ?? 0))).join("  "));
}
