/**
 * How the service's process is best started, for memory: measured with the
 * bench's five-minute soak (docs/performance.md, "Sustained load"), these
 * keep 32 clients' sustained load under 300 MB of RSS where Node's defaults
 * settle near 360 MB, at the same throughput:
 *
 * - `MALLOC_ARENA_MAX=2`: glibc gives every thread that allocates its own
 *   malloc arena (the synthesis workers, libuv's pool); their fragments added
 *   about 30 MB. Read by glibc when the process starts, so it can only be set
 *   for a new process; other C libraries ignore it.
 * - `MALLOC_MMAP_THRESHOLD_=131072`: glibc raises its mmap threshold to the
 *   largest block freed, so after a long text's buffers (WAV, PCM, MP3 of
 *   megabytes) later large buffers came from the arenas and their memory
 *   stayed with the process: three 5 000-character texts left it 60 MB
 *   larger for good. Fixed at 128 KB, every buffer that large is mapped on
 *   its own and returned when freed.
 * - `--max-semi-space-size=4`: V8's young generation reserves 32 MB by default
 *   (2 × 16 MB semi-spaces) on the main thread; the requests' short-lived
 *   objects do as well in 8.
 * - `--max-old-space-size=256`: V8 sizes its collections, and lets buffers
 *   awaiting collection (the workers' MP3s and PCM moved to the main thread)
 *   pile up, by the heap's limit; the service keeps about 100 MB alive, so
 *   256 MB leaves it two and a half times that and collects sooner.
 *
 * `npm start` runs bin/start.js, which starts `fangyan serve` with them;
 * docs/deploy.md's unit sets the same; an operator's NODE_OPTIONS wins.
 */

export const SERVICE_V8_FLAGS = ["--max-semi-space-size=4", "--max-old-space-size=256"] as const;

export const SERVICE_ENV = { MALLOC_ARENA_MAX: "2", MALLOC_MMAP_THRESHOLD_: "131072" } as const;

/** The V8 flags to start the service with: ours, except those an operator's NODE_OPTIONS already sets. */
export function serviceV8Flags(nodeOptions: string | undefined): string[] {
  const given = nodeOptions ?? "";
  return SERVICE_V8_FLAGS.filter((flag) => !given.includes(flag.split("=")[0] ?? flag));
}

/** The environment to start the service with: ours beneath the operator's. */
export function serviceEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return { ...SERVICE_ENV, ...env };
}
