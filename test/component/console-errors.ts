// What the screens log with console.error during a component test, kept instead of printed (a failed load is
// logged by design, spec §8): emptied before each test, console.error put back after it.
import { afterEach, beforeEach } from "bun:test";

export function captureConsoleErrors(): unknown[][] {
  const logged: unknown[][] = [];
  const realConsoleError = console.error;
  beforeEach(() => {
    logged.length = 0;
    console.error = (...args: unknown[]) => void logged.push(args);
  });
  afterEach(() => {
    console.error = realConsoleError;
  });
  return logged;
}
