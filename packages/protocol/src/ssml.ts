/**
 * When POST /tts reads `text` as SSML: the one definition the server, the
 * client (which never splits an SSML text) and the console share.
 */

/** A text is SSML when it starts with `<speak` (after white space and a byte order mark). */
export function isSsml(text: string): boolean {
  return /^[\s\uFEFF]*<speak(?=[\s/>]|$)/.test(text);
}

const ESCAPES: Readonly<Record<string, string>> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" };

/** Text made safe to put inside an SSML element or attribute: & < > " ' as entities. */
export function escapeSsml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ESCAPES[char] ?? char);
}

/** An SSML document for `body`: as it is when it already starts with `<speak`, else wrapped in one. */
export function asSsmlDocument(body: string): string {
  return isSsml(body) ? body : `<speak>${body}</speak>`;
}
