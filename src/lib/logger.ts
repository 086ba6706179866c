export interface Logger {
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export const LOG_LEVELS = ["debug", "info", "warn", "error"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** One line per event at `level` and above, to stderr, so stdout stays clean for CLI output (--json). */
export function createConsoleLogger(level: LogLevel = "info"): Logger {
  const min = LOG_LEVELS.indexOf(level);
  const line = (at: LogLevel) =>
    LOG_LEVELS.indexOf(at) < min ? () => {} : (m: string) => console.error(`${new Date().toISOString()} ${at.padEnd(5)} ${m}`);
  return { debug: line("debug"), info: line("info"), warn: line("warn"), error: line("error") };
}


/** Collects lines; for tests and for commands that must stay quiet. */
export class MemoryLogger implements Logger {
  readonly lines: string[] = [];
  debug(m: string): void {
    this.lines.push(`debug ${m}`);
  }
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
