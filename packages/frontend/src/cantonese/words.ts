/**
 * Words to-jyutping reads wrongly, with their standard Hong Kong readings:
 * polyphones in context and the colloquial changed tones (變音) that are the
 * norm in speech. General vocabulary, not sentences.
 */
export const CANTONESE_WORDS: Record<string, string> = {
  行長: "hong4 zoeng2",
  個女: "go3 neoi2",
};
