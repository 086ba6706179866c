import { ConflictError, NotFoundError, throwIfInvalid } from "../errors.ts";
import type { BusinessTypeRow } from "../repos/business-types.ts";
import type { Repos } from "../repos/index.ts";
import { type BusinessType, businessTypeSchema } from "../schemas/business-types.ts";
import { checkNamePageParams, nameKeyset, type Page, pageOf } from "../schemas/paging.ts";
import { keepOmittedFields } from "./partial-update.ts";
import { validate } from "./validate.ts";

export const TYPE_NOT_FOUND = "Business type not found.";
export const TYPE_NAME_TAKEN = "A business type with this name already exists.";

export function typeInUseMessage(name: string, count: number): string {
  return `"${name}" is used by ${count} business${count === 1 ? "" : "es"} and cannot be deleted. Mark it inactive instead.`;
}

/** A stored type as the API answers it: every column, with the date as ISO text. */
export function toBusinessType(row: BusinessTypeRow): BusinessType {
  return { ...row, createdAt: row.createdAt.toISOString() };
}

/** The unique index on lower(name) fired: another writer (the CLI, a second tab) got there between check and write. */
function isUniqueViolation(e: unknown): boolean {
  for (let err = e as { code?: unknown; message?: unknown; cause?: unknown } | undefined, depth = 0; err && depth < 5; depth++) {
    if (err.code === "SQLITE_CONSTRAINT_UNIQUE" || String(err.message ?? "").includes("UNIQUE constraint failed")) return true;
    err = err.cause as typeof err;
  }
  return false;
}

export function createBusinessTypesService({ repos }: { repos: Repos }) {
  function get(id: number): BusinessTypeRow {
    const row = repos.businessTypes.findById(id);
    if (!row) throw new NotFoundError(TYPE_NOT_FOUND);
    return row;
  }

  function assertNameFree(name: string, exceptId?: number): void {
    const other = repos.businessTypes.findByName(name);
    if (other && other.id !== exceptId) throw new ConflictError(TYPE_NAME_TAKEN);
  }

  function write<T>(fn: () => T): T {
    try {
      return repos.transaction(fn);
    } catch (e) {
      if (isUniqueViolation(e)) throw new ConflictError(TYPE_NAME_TAKEN);
      throw e;
    }
  }

  return {
    list(): BusinessType[] {
      return repos.businessTypes.list().map(toBusinessType);
    },
    /** GET ListBusinessTypes: the same list a page at a time, with a search in the names. */
    page(query: Record<string, string | undefined>): Page<BusinessType> {
      const errors: Record<string, string> = {};
      const { after, limit, search } = checkNamePageParams(query, errors);
      throwIfInvalid(errors);
      const rows = repos.businessTypes.page(search, after, limit + 1);
      return pageOf(rows, limit, nameKeyset, repos.businessTypes.count(search), (shown) => shown.map(toBusinessType));
    },
    get(id: number): BusinessType {
      return toBusinessType(get(id));
    },
    create(input: unknown): BusinessType {
      const data = validate(businessTypeSchema, input);
      return write(() => {
        assertNameFree(data.name);
        return toBusinessType(repos.businessTypes.insert(data));
      });
    },
    /**
     * Replaces the type's fields. One left out of the body keeps its current value (it is not reset to its default:
     * a client that omits isActive must not silently reactivate a retired type).
     */
    update(id: number, input: unknown): BusinessType {
      return write(() => {
        const current = get(id);
        // The name is never carried over: a PUT must name the type ("Business type name is required").
        const data = validate(businessTypeSchema, keepOmittedFields(businessTypeSchema, { ...current, name: undefined }, input));
        assertNameFree(data.name, id);
        const row = repos.businessTypes.update(id, data);
        if (!row) throw new NotFoundError(TYPE_NOT_FOUND);
        return toBusinessType(row);
      });
    },
    /** Deletes a type no business uses and returns it; a type in use answers 409 and nothing changes. */
    remove(id: number): BusinessType {
      return repos.transaction(() => {
        const row = get(id);
        const inUse = repos.businesses.countByType(id);
        if (inUse > 0) throw new ConflictError(typeInUseMessage(row.name, inUse));
        repos.businessTypes.delete(id);
        return toBusinessType(row);
      });
    },
  };
}

export type BusinessTypesService = ReturnType<typeof createBusinessTypesService>;
