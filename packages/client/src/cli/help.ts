export const MAIN_HELP = `fy: speak Chinese text through a Fangyan service, save it as MP3, WAV, PCM, Opus or FLAC

Usage
  fy say [TEXT] -v VOICE [-o FILE] [options]   speak TEXT (or --file, or standard input) into an audio file
  fy voices                                     list the voices, grouped by dialect
  fy account                                    show the balance, the price and the totals

Options of every command
  --json            print one JSON object on standard output, errors included
  --base-url URL    the API address, ending in /api/v1
                    (default: $FANGYAN_BASE_URL, else http://127.0.0.1:8080/api/v1)
  --max-retries N   retries after a network failure, a timeout, a 429 (after the wait the
                    service asks for, up to a minute) or a 5xx; default 2, 0 for none
  -h, --help        show help; \`fy say --help\` shows the options of say
  --version         show the version of fy

Environment
  FANGYAN_API_KEY   your API key (fy_…); required. Kept out of the command line, so that
                    it does not end up in shell history or in the process list.
  FANGYAN_BASE_URL  as --base-url

Examples
  export FANGYAN_API_KEY=fy_…
  fy voices
  fy say "你好，世界" -v cmn-female-1 -o hi.mp3
  fy say "你好，世界" -v cmn-female-1 -o hi.wav      the extension picks the format
  fy say -v yue-female-1 --file story.txt -o story.mp3    any length: sent in parts, joined into one MP3
  cat news.txt | fy say -v cmn-male-1 --speed 1.2
  fy account --json

Exit codes
  0 done                      5 rate limit reached
  1 other error               6 request refused (a parameter, the length)
  2 wrong arguments           7 speech synthesis failed
  3 API key or clock refused  8 service unreachable or too slow to answer
  4 balance too low
`;

export const SAY_HELP = `fy say: speak a text into an audio file (MP3, WAV, PCM, Opus or FLAC)

Usage
  fy say [TEXT] -v VOICE [-o FILE] [--format NAME] [--speed N] [--pitch N] [--volume N] [--ssml] [--srt FILE] [--vtt FILE] [--json]

The text comes from the arguments, from --file, or from standard input, in that order.
A text over 5000 characters is split at sentence ends into several requests, and their
files are joined into one (MP3, WAV and PCM; an Opus or FLAC file holds at most one
request); the balance is checked for the whole text first. Each request is billed on its
own, rounded up to 50 characters, so a long text costs up to 49 characters more per
request than its length alone would. Every format costs the same.

Options
  -v, --voice ID     the voice, an id from \`fy voices\` (required)
  -o, --output FILE  where to write the audio; a folder is fine. Without it, a name made
                     from the start of the text, in the current folder; an existing file
                     of that name is kept and a number is added to the new one.
                     The extension picks the format: .mp3 .wav .pcm .opus .flac (any
                     case; no extension is MP3); any other is refused unless --format
                     is given
  --format NAME      mp3, wav, pcm, opus or flac, whatever the file is called; without
                     -o FILE it names the file's extension (default mp3). pcm is raw
                     signed 16-bit little-endian mono at 24000 Hz; wav and flac are at
                     the voice's own rate; opus is Ogg Opus at 48000 Hz
  -f, --file PATH    read the text from a file (UTF-8); "-" reads standard input
  --speed N          speaking rate, 0.5 to 2.0 (default 1.0)
  --pitch N          0.5 to 2.0 (default 1.0)
  --volume N         0.1 to 2.0 (default 1.0)
  --srt FILE         also write subtitles, one cue per sentence, as SubRip (same price)
  --vtt FILE         also write them as WebVTT; either option asks for the timings
  --ssml             the text is SSML: <break>, <prosody>, <say-as>, <phoneme>, <sub>, …
                     (wrapped in <speak> when it does not start with it; a text that starts
                     with <speak is SSML anyway). Sent whole, as one request of at most 5000
                     characters, billed as sent, tags included
  --json             print the result as JSON: file, duration, cost and every part
  --base-url URL     the API address, ending in /api/v1
  --max-retries N    retries of each request after a network failure, a 429 or a 5xx
                     (default 2); a retried request is never charged twice

Examples
  fy say "你好，世界" -v cmn-female-1 -o hi.mp3
  fy say "你好，世界" -v cmn-female-1 -o hi.flac
  fy say "早晨！食咗飯未呀？" -v yue-female-1 --speed 0.9 --format opus
  fy say -v cmn-female-1 --file chapter1.txt -o audiobook/
  fy say -v yue-female-1 --file lesson.txt -o lesson.mp3 --srt lesson.srt --vtt lesson.vtt
  fy say --ssml -v cmn-female-1 '请拨打<say-as interpret-as="telephone">13812345678</say-as><break time="800ms"/>谢谢'
`;

export const VOICES_HELP = `fy voices: list the voices of the service, grouped by dialect

Usage
  fy voices [--json] [--base-url URL] [--max-retries N]

Pass a voice's id to \`fy say -v\`.
`;

export const ACCOUNT_HELP = `fy account: show the account of your API key

Usage
  fy account [--json] [--base-url URL] [--max-retries N]

Shows the balance, the price per 10,000 characters and its tier (the price falls once
the total recharged reaches 500 and then 2000 yuan), and the totals recharged and spent.
`;
