/** Character classes and the width folding every dialect starts with. */

const han = /^\p{Script=Han}$/u;

/** A CJK ideograph (〇 included), the unit a Chinese syllable is written with. */
export function isHan(char: string): boolean {
  return han.test(char);
}

export function isDigit(char: string | undefined): boolean {
  return char !== undefined && char >= "0" && char <= "9";
}

export function isLatin(char: string | undefined): boolean {
  return char !== undefined && /^[A-Za-z]$/.test(char);
}

/**
 * Full-width ASCII (Ｆｕｌｌ１２３％) becomes ASCII, the ideographic space a space,
 * and the minus and hyphen look-alikes a hyphen, so that the normaliser has
 * one spelling of each digit, letter and sign to recognise. Chinese
 * punctuation proper (，。、) keeps its own code points.
 */
export function foldWidth(text: string): string {
  let out = "";
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    if (code >= 0xff01 && code <= 0xff5e) out += String.fromCodePoint(code - 0xfee0);
    else if (code === 0x3000) out += " ";
    else if (code === 0xffe5) out += "¥";
    else if (code === 0x2212 || (code >= 0x2010 && code <= 0x2013)) out += "-";
    else out += char;
  }
  return out;
}
