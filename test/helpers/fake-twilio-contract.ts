// The fake Twilio's contract guard: every request it receives is checked against Twilio's OpenAPI definitions
// (twilio-contract.ts). A request that breaks them is answered as Twilio answers it (400 with the parameter's error
// code, 404, 405) AND remembered; the fake's stop() then throws with the list, so the test file fails loudly even
// when the code under test swallowed the 400. A test that sends such a request on purpose takes it back with
// takeContractViolations().
import { type ContractRequest, checkTwilioRequest, describeProblems } from "./twilio-contract.ts";

export interface ContractGuard {
  /** The violations seen so far (reset() of the fake keeps them: they belong to the file, not to one test). */
  readonly violations: string[];
  /** Checks one request: null when it fits, else Twilio's answer to it (and the violation is remembered). */
  check(req: ContractRequest): Response | null;
  /** Returns the violations seen so far and forgets them (for a test that breaks the contract on purpose). */
  take(): string[];
  /** Throws with every violation not taken: called by the fake's stop(). */
  assertNone(): void;
}

export function createContractGuard(): ContractGuard {
  const violations: string[] = [];
  return {
    violations,
    check(req) {
      const problems = checkTwilioRequest(req);
      if (problems.length === 0) return null;
      violations.push(...describeProblems(req, problems));
      const first = problems[0]!;
      return Response.json(
        { code: first.code, message: first.message, more_info: `https://www.twilio.com/docs/errors/${first.code}`, status: first.status },
        { status: first.status },
      );
    },
    take: () => violations.splice(0),
    assertNone() {
      if (violations.length === 0) return;
      const lines = violations.splice(0);
      throw new Error(`The fake Twilio received ${lines.length} request(s) Twilio's API definitions refuse:\n  ${lines.join("\n  ")}`);
    },
  };
}
