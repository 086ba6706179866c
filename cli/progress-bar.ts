// A progress line on stderr for long CLI work (a broadcast being sent, a CSV being imported): redrawn in place on a
// terminal; in a log or a pipe, a line every 2 s at most and the last one, so the file stays readable.

/** "[#########-----------]  45%" */
export function bar(ratio: number, width = 24): string {
  const r = Math.max(0, Math.min(1, ratio));
  const filled = Math.round(r * width);
  return `[${"#".repeat(filled)}${"-".repeat(width - filled)}] ${String(Math.floor(r * 100)).padStart(3)}%`;
}

export class ProgressPrinter {
  private readonly tty = process.stderr.isTTY === true;
  private last = "";
  private lastPrinted = 0;
  private drawn = false;

  /** Shows `line`; `final` is the last one (always printed). */
  update(line: string, final = false): void {
    if (this.tty) {
      process.stderr.write(`\r${line}`);
      this.drawn = true;
    } else if (line !== this.last && (final || Date.now() - this.lastPrinted >= 2000)) {
      process.stderr.write(`${line}\n`);
      this.lastPrinted = Date.now();
      this.last = line;
    }
  }

  /** Ends the redrawn line on a terminal. */
  done(): void {
    if (this.tty && this.drawn) process.stderr.write("\n");
  }
}
