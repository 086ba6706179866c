import { ConflictError, NotFoundError } from "../errors.ts";
import type { BusinessTypeRow } from "../repos/business-types.ts";
import type { Repos } from "../repos/index.ts";
import { type BusinessType, businessTypeSchema } from "../schemas/business-types.ts";
import { validate } from "./validate.ts";

export const TYPE_NOT_FOUND = "Business type not found.";
export const TYPE_NAME_TAKEN = "A business type with this name already exists.";

export function toBusinessType(row: BusinessTypeRow): BusinessType {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    isActive: row.isActive,
    createdAt: row.createdAt.toISOString(),
  };
}

function isUniqueViolation(e: unknown): boolean {
  return String(e).includes("UNIQUE constraint failed");
}

export function createBusinessTypesService({ repos }: { repos: Repos }) {
  function get(id: number): BusinessTypeRow {
    const row = repos.businessTypes.findById(id);
    if (!row) throw new NotFoundError(TYPE_NOT_FOUND);
    return row;
  }

  return {
    list(): BusinessType[] {
      return repos.businessTypes.list().map(toBusinessType);
    },
    get(id: number): BusinessType {
      return toBusinessType(get(id));
    },
    create(input: unknown): BusinessType {
      const data = validate(businessTypeSchema, input);
      try {
        return toBusinessType(repos.businessTypes.insert(data));
      } catch (e) {
        if (isUniqueViolation(e)) throw new ConflictError(TYPE_NAME_TAKEN);
        throw e;
      }
    },
    update(id: number, input: unknown): BusinessType {
      const data = validate(businessTypeSchema, input);
      get(id);
      try {
        const row = repos.businessTypes.update(id, data);
        if (!row) throw new NotFoundError(TYPE_NOT_FOUND);
        return toBusinessType(row);
      } catch (e) {
        if (isUniqueViolation(e)) throw new ConflictError(TYPE_NAME_TAKEN);
        throw e;
      }
    },
    remove(id: number): void {
      repos.transaction(() => {
        const row = get(id);
        const inUse = repos.businesses.countByType(id);
        if (inUse > 0) {
          throw new ConflictError(
            `"${row.name}" is used by ${inUse} business${inUse === 1 ? "" : "es"} and cannot be deleted. Mark it inactive instead.`,
          );
        }
        repos.businessTypes.delete(id);
      });
    },
  };
}

export type BusinessTypesService = ReturnType<typeof createBusinessTypesService>;
