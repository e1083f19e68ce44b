/**
 * Step 7 of POST /tts for a text that is SSML: a document that is not
 * well-formed, asks for a value out of range or a reading that is not pinyin
 * or Jyutping, or exceeds the bounds, is MISSING_PARAMETER with `text` in
 * `details.invalid` and where it went wrong in `details.ssml`. Never charged.
 */

import { isSsml, parseSsml, type SsmlDocument, type SsmlError } from "@fangyan/frontend";

export type SsmlCheck = { ssml: false } | { ssml: true; document: SsmlDocument } | { ssml: true; error: SsmlError; message: string };

export function checkSsmlText(text: string): SsmlCheck {
  if (!isSsml(text)) return { ssml: false };
  const parsed = parseSsml(text);
  if (parsed.ok) return { ssml: true, document: parsed.document };
  const { line, column, element, reason } = parsed.error;
  const where = `line ${line}, column ${column}${element === undefined ? "" : `, in <${element}>`}`;
  return { ssml: true, error: parsed.error, message: `text is not valid SSML (${where}): ${reason}` };
}
