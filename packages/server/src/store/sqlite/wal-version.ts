import fs from "node:fs";

/**
 * The WAL-index header of a SQLite database in WAL mode, read from its `-shm`
 * file: a value that changes with every commit by any connection in any
 * process (the admin command included), and that nothing else changes.
 *
 * SQLite keeps two copies of the 48-byte header at the start of the shared
 * memory file. A writer updates the second copy, then the first, after every
 * commit; the header holds the WAL's frame count, a change counter and the
 * WAL's salts, so no later state of the database repeats an earlier header.
 * A reader that sees two copies that differ is between those writes and is
 * told nothing (undefined), as is one that finds no initialised header.
 *
 * This is what lets the server keep what it read for a key (the owner and the
 * balance) between requests: the header is read before the query, so a
 * commit that lands after the read changes the header and a later request
 * reads again. See docs/performance.md, "Keys and balances between requests".
 *
 * Reading the header is a system call, and on a busy server it was a tenth of
 * a GET /account. So one reading is reused for at most `reuseMs` (0.5 ms), and
 * forgotten at once whenever this process's own connection runs a statement
 * (`forget`): this process always sees its own commits, and a commit by
 * another process (the admin command) is seen by every request handled more
 * than `reuseMs` after it.
 */
export class WalVersion {
  private readonly header = Buffer.alloc(HEADER_BYTES * 2);
  private reused: string | undefined;
  private readAt = 0;

  private constructor(
    private fd: number | undefined,
    private readonly reuseMs: number,
  ) {}

  /** Undefined when the database has no shared-memory file (not in WAL mode, or in memory). */
  static open(databaseFile: string, options: { reuseMs?: number } = {}): WalVersion | undefined {
    try {
      return new WalVersion(fs.openSync(`${databaseFile}-shm`, "r"), options.reuseMs ?? DEFAULT_REUSE_MS);
    } catch {
      return undefined;
    }
  }

  /** The header as a string (compare with ===), or undefined when it cannot be read consistently now. */
  read(): string | undefined {
    const now = performance.now();
    if (this.reused !== undefined && now - this.readAt < this.reuseMs) return this.reused;
    this.reused = this.readHeader();
    this.readAt = now;
    return this.reused;
  }

  /** Called after every statement this process runs: the next read goes to the file. */
  forget(): void {
    this.reused = undefined;
  }

  private readHeader(): string | undefined {
    if (this.fd === undefined) return undefined;
    let length: number;
    try {
      length = fs.readSync(this.fd, this.header, 0, this.header.length, 0);
    } catch {
      return undefined;
    }
    if (length < this.header.length) return undefined;
    if (this.header[IS_INIT_OFFSET] !== 1) return undefined;
    if (this.header.compare(this.header, HEADER_BYTES, HEADER_BYTES * 2, 0, HEADER_BYTES) !== 0) return undefined;
    return this.header.toString("latin1", 0, HEADER_BYTES);
  }

  close(): void {
    if (this.fd === undefined) return;
    fs.closeSync(this.fd);
    this.fd = undefined;
  }
}

/** sizeof(WalIndexHdr) in SQLite's wal.c; the `isInit` flag is its byte 12. */
const HEADER_BYTES = 48;
const IS_INIT_OFFSET = 12;
const DEFAULT_REUSE_MS = 0.5;
