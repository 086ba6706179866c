import { NotFoundError, ValidationError } from "../errors.ts";
import type { BusinessWithType } from "../repos/businesses.ts";
import type { Repos } from "../repos/index.ts";
import type { UserRow } from "../repos/users.ts";
import {
  type Business,
  DEFAULT_QR_MESSAGE,
  DEFAULT_SUCCESS_MESSAGE,
  type PublicBusiness,
  businessSchema,
} from "../schemas/businesses.ts";
import { validate } from "./validate.ts";

export const BUSINESS_NOT_FOUND = "Business not found.";

export function toPublicBusiness(row: BusinessWithType): PublicBusiness {
  return {
    id: row.id,
    name: row.name,
    businessTypeId: row.businessTypeId,
    businessType: row.typeName === null ? null : { id: row.businessTypeId, name: row.typeName },
    address: row.address,
    phone: row.phone,
    logoImagePath: row.logoImagePath,
    sampleImagePath: row.sampleImagePath,
    sampleProductText: row.sampleProductText,
    qrMessage: row.qrMessage || DEFAULT_QR_MESSAGE,
    successMessage: row.successMessage || DEFAULT_SUCCESS_MESSAGE,
    isActive: row.isActive,
    createdAt: row.createdAt.toISOString(),
  };
}

export function toBusiness(row: BusinessWithType): Business {
  return { ...toPublicBusiness(row), ownerId: row.ownerId };
}

/** Owners reach only their own businesses; anything else looks like it does not exist. */
export function canManage(user: UserRow, row: { ownerId: number }): boolean {
  return user.role === "admin" || row.ownerId === user.id;
}

export function createBusinessesService({ repos }: { repos: Repos }) {
  function owned(user: UserRow, id: number): BusinessWithType {
    const row = repos.businesses.findById(id);
    if (!row || !canManage(user, row)) throw new NotFoundError(BUSINESS_NOT_FOUND);
    return row;
  }

  function checkType(businessTypeId: number, currentTypeId?: number): void {
    const type = repos.businessTypes.findById(businessTypeId);
    // An inactive type may stay on a business that already has it, but is not offered for new choices.
    if (!type || (!type.isActive && type.id !== currentTypeId)) {
      throw new ValidationError("Business type is required", { businessTypeId: "Business type is required" });
    }
  }

  return {
    /** Public list: active businesses only, public fields. */
    listPublic(): PublicBusiness[] {
      return repos.businesses.listActive().map(toPublicBusiness);
    },
    listPublicByType(businessTypeId: number): PublicBusiness[] {
      return repos.businesses.listActiveByType(businessTypeId).map(toPublicBusiness);
    },
    /** Public read by id: an inactive business is not shown to the public. */
    getPublic(id: number): PublicBusiness {
      const row = repos.businesses.findById(id);
      if (!row || !row.isActive) throw new NotFoundError(BUSINESS_NOT_FOUND);
      return toPublicBusiness(row);
    },
    /** The owner's (or admin's) view, including inactive businesses. */
    get(user: UserRow, id: number): Business {
      return toBusiness(owned(user, id));
    },
    listMine(user: UserRow): Business[] {
      return repos.businesses.listByOwner(user.id).map(toBusiness);
    },
    listAll(): Business[] {
      return repos.businesses.listAll().map(toBusiness);
    },
    create(user: UserRow, input: unknown): Business {
      const data = validate(businessSchema, input);
      checkType(data.businessTypeId);
      const row = repos.businesses.insert({ ...data, ownerId: user.id });
      return toBusiness(repos.businesses.findById(row.id)!);
    },
    update(user: UserRow, id: number, input: unknown): Business {
      const data = validate(businessSchema, input);
      const current = owned(user, id);
      checkType(data.businessTypeId, current.businessTypeId);
      repos.businesses.update(id, data);
      return toBusiness(repos.businesses.findById(id)!);
    },
    remove(user: UserRow, id: number): void {
      owned(user, id);
      repos.businesses.delete(id);
    },
  };
}

export type BusinessesService = ReturnType<typeof createBusinessesService>;
