export interface Logger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

// One line per event, to stderr, so stdout stays clean for CLI output (--json).
export const consoleLogger: Logger = {
  info: (m) => console.error(`${new Date().toISOString()} info  ${m}`),
  warn: (m) => console.error(`${new Date().toISOString()} warn  ${m}`),
  error: (m) => console.error(`${new Date().toISOString()} error ${m}`),
};

/** Collects lines; for tests and for commands that must stay quiet. */
export class MemoryLogger implements Logger {
  readonly lines: string[] = [];
  info(m: string): void {
    this.lines.push(`info ${m}`);
  }
  warn(m: string): void {
    this.lines.push(`warn ${m}`);
  }
  error(m: string): void {
    this.lines.push(`error ${m}`);
  }
}
