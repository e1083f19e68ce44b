/** The dialects the front-end reads, by ISO 639-3 code. */
export const FRONTEND_DIALECTS = ["cmn", "yue"] as const;
