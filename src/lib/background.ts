import type { Logger } from "./logger.ts";

/**
 * Work that must not happen in the request's own time: it runs after the answer has gone (a timer, not a microtask,
 * so the response is written first), and how long it takes tells the caller nothing. Each job is tracked, so tests
 * and a shutdown can wait for it (idle()) instead of sleeping; a job's failure is logged, never thrown at anybody.
 */
export function createBackground(logger: Logger) {
  const pending = new Set<Promise<void>>();
  return {
    run(what: string, job: () => unknown): void {
      const p: Promise<void> = new Promise<void>((resolve) => setTimeout(resolve, 0))
        .then(job)
        .then(
          () => {},
          (err) => logger.warn(`${what} failed: ${err instanceof Error ? err.message : "unexpected error"}`),
        )
        .finally(() => pending.delete(p));
      pending.add(p);
    },
    /** Resolves when every job started so far (and any it started) has finished. */
    async idle(): Promise<void> {
      while (pending.size) await Promise.all(pending);
    },
  };
}

export type Background = ReturnType<typeof createBackground>;
