// The executable starts with JavaScriptCore's tier-up thresholds scaled 100x (scripts/build.ts APP_COMPILE_FLAGS):
// the code that runs once while a process starts (module bodies, the context, the first claim) stays in the
// interpreter instead of being compiled, and an idle server never touches the optimizing compilers' own code: ~4.7 MB
// less (issue 26 item 2; bench/README.md "Session 14"). Once the start is done, the code a command or the server runs
// often is compiled as usual. From source (tests, `bun cli/main.ts`) the policy is already the normal one.

/** The normal JIT from now on, on this thread. */
export function startIsDone(): void {
  Bun.unsafe.setJITPolicy(1);
}
