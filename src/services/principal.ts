import type { UserRow } from "../repos/users.ts";

/**
 * Whoever runs the CLI on the machine that holds the data directory. They already have the database file, so the
 * services let them act on everything, as an admin would; nothing they do is recorded under a user's id.
 */
export const OPERATOR = Object.freeze({ kind: "operator" as const });
export type Operator = typeof OPERATOR;

/** Who acts on a service: a signed-in user (HTTP) or the operator (CLI). */
export type Principal = UserRow | Operator;

export function isOperator(actor: Principal): actor is Operator {
  return actor === OPERATOR;
}

/** The admin and the operator see and change every business; an owner only their own. */
export function managesAll(actor: Principal): boolean {
  return ownerScope(actor) === null;
}

/** The owner whose businesses bound what the actor sees; null for the admin and the operator, who see all. */
export function ownerScope(actor: Principal): number | null {
  return isOperator(actor) || actor.role === "admin" ? null : actor.id;
}

/** Owners reach only their own businesses; anything else looks like it does not exist. */
export function canManage(actor: Principal, row: { ownerId: number }): boolean {
  const scope = ownerScope(actor);
  return scope === null || row.ownerId === scope;
}

/** The user id to record as the one who acted; null for the operator. */
export function actingUserId(actor: Principal): number | null {
  return isOperator(actor) ? null : actor.id;
}
