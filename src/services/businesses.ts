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
import { BUSINESS_NOT_FOUND } from "../schemas/texts.ts";
import { storedFileName, uploadPath } from "./uploads.ts";
import { validate } from "./validate.ts";

export { BUSINESS_NOT_FOUND };

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

/** The body fields of a business, as the current row would send them (for fields an update leaves out). */
function currentInput(row: BusinessWithType): Record<string, unknown> {
  return {
    name: row.name,
    businessTypeId: row.businessTypeId,
    address: row.address,
    phone: row.phone,
    sampleProductText: row.sampleProductText,
    qrMessage: row.qrMessage ?? "",
    successMessage: row.successMessage ?? "",
    isActive: row.isActive,
    logoImagePath: row.logoImagePath,
    sampleImagePath: row.sampleImagePath,
  };
}

function isPlainObject(x: unknown): x is Record<string, unknown> {
  return typeof x === "object" && x !== null && !Array.isArray(x);
}

export const LOGO_NOT_YOURS = "The logo must be an image you uploaded. Please upload the logo again.";
export const SAMPLE_NOT_YOURS = "The sample product image must be an image you uploaded. Please upload the image again.";

type ImageField = "logoImagePath" | "sampleImagePath";

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

  /**
   * The stored path for an image field. Empty clears it; the business's current value may always stay; anything
   * else must name a logo or sample upload of the caller (or, when an admin edits, of the business's owner).
   */
  function imagePath(field: ImageField, value: string | null | undefined, ownerIds: number[], current: string | null): string | null {
    if (!value) return null;
    if (current && value === current) return current;
    const upload = storedFileName(value) ? repos.uploads.findByFileName(storedFileName(value)!) : undefined;
    if (!upload || upload.kind === "broadcast" || !ownerIds.includes(upload.ownerId)) {
      const message = field === "logoImagePath" ? LOGO_NOT_YOURS : SAMPLE_NOT_YOURS;
      throw new ValidationError(message, { [field]: message });
    }
    return uploadPath(upload.fileName);
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
    /** The full record when `user` may manage business `id`; undefined otherwise (no error). */
    findManaged(user: UserRow, id: number): Business | undefined {
      const row = repos.businesses.findById(id);
      return row && canManage(user, row) ? toBusiness(row) : undefined;
    },
    /** For the operator (CLI): any business by id. */
    getById(id: number): Business {
      const row = repos.businesses.findById(id);
      if (!row) throw new NotFoundError(BUSINESS_NOT_FOUND);
      return toBusiness(row);
    },
    /** "My businesses": the ones this user owns (an admin too: their own, not everyone's). */
    listMine(user: UserRow): Business[] {
      return repos.businesses.listByOwner(user.id).map(toBusiness);
    },
    listByOwnerId(ownerId: number): Business[] {
      return repos.businesses.listByOwner(ownerId).map(toBusiness);
    },
    listAll(): Business[] {
      return repos.businesses.listAll().map(toBusiness);
    },
    create(user: UserRow, input: unknown): Business {
      const data = validate(businessSchema, input);
      return repos.transaction(() => {
        checkType(data.businessTypeId);
        const row = repos.businesses.insert({
          ...data,
          logoImagePath: imagePath("logoImagePath", data.logoImagePath, [user.id], null),
          sampleImagePath: imagePath("sampleImagePath", data.sampleImagePath, [user.id], null),
          ownerId: user.id,
        });
        return toBusiness(repos.businesses.findById(row.id)!);
      });
    },
    /**
     * Replaces the business's fields. A field left out of the body keeps its current value (a client that omits
     * isActive must not silently reactivate a business); null or "" for an image clears it.
     */
    update(user: UserRow, id: number, input: unknown): Business {
      const current = owned(user, id);
      const merged = isPlainObject(input) ? { ...currentInput(current), ...input } : input;
      const data = validate(businessSchema, merged);
      const owners = [user.id, current.ownerId];
      return repos.transaction(() => {
        checkType(data.businessTypeId, current.businessTypeId);
        repos.businesses.update(id, {
          ...data,
          logoImagePath: imagePath("logoImagePath", data.logoImagePath, owners, current.logoImagePath),
          sampleImagePath: imagePath("sampleImagePath", data.sampleImagePath, owners, current.sampleImagePath),
        });
        return toBusiness(repos.businesses.findById(id)!);
      });
    },
    remove(user: UserRow, id: number): void {
      owned(user, id);
      repos.businesses.delete(id);
    },
  };
}

export type BusinessesService = ReturnType<typeof createBusinessesService>;
