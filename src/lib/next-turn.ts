/**
 * Lets the event loop answer what is waiting (requests, I/O) before long work goes on with its next chunk.
 * setImmediate runs after the I/O poll; setTimeout(0) would do the same but costs about 1 ms a turn, which over the
 * 50 chunks of a 100,000-recipient enqueue is a third of its time (bench/broadcast.ts).
 */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
