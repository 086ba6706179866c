import type { AppContext } from "../context.ts";
import type { UserRow } from "../repos/users.ts";

/** What Bun.serve passes as the second fetch argument; tests pass a stand-in with requestIP. */
export interface ServerEnv {
  requestIP?: (req: Request) => { address: string } | null;
}

export type AppEnv = {
  Bindings: ServerEnv;
  Variables: {
    ctx: AppContext;
    user: UserRow | undefined;
    token: string | undefined;
  };
};
