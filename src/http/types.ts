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
    /** The socket's peer address, read before any middleware replaces the request (bodyLimit does, for chunked bodies). */
    peer: string | undefined;
    user: UserRow | undefined;
    token: string | undefined;
    /** This browser's XSRF token (its cookie's, or the one this response hands out): forms echo it in a hidden field. */
    xsrfToken: string;
  };
};
