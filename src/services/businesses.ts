import { ConflictError, NotFoundError, ValidationError, throwIfInvalid } from "../errors.ts";
import { KEYWORD_TAKEN, keywordField } from "../schemas/join-keyword.ts";
import * as v from "valibot";
import type { BusinessWithType } from "../repos/businesses.ts";
import type { Repos } from "../repos/index.ts";
import type { UserRow } from "../repos/users.ts";
import {
  type Business,
  DEFAULT_SUCCESS_MESSAGE,
  PUBLIC_BUSINESS_KEYS,
  type PublicBusiness,
  businessSchema,
} from "../schemas/businesses.ts";
import { parseIdText } from "../schemas/ids.ts";
import { DEFAULT_QR_MESSAGE } from "../schemas/poster-text.ts";
import { checkNamePageParams, nameKeyset, type Page, pageOf } from "../schemas/paging.ts";
import { BUSINESS_NOT_FOUND } from "../schemas/texts.ts";
import { keepOmittedFields } from "./partial-update.ts";
import { csvRecords, toCsv } from "../lib/csv.ts";
import type { ConsentExportRow } from "../repos/consent-events.ts";
import { type Principal, actingUserId, canManage, ownerScope } from "./principal.ts";
import { storedFileName, uploadPath } from "./uploads.ts";
import { validate } from "./validate.ts";
import { nextTurn } from "../lib/next-turn.ts";


export const BUSINESS_TYPE_FILTER_INVALID = "businessTypeId must be a positive whole number";

/**
 * The owner's view of a stored business: every column but the type's name, with the type as an object, the default
 * texts for empty messages and the date as ISO text.
 */
export function toBusiness(row: BusinessWithType): Business {
  const { ownerId, typeName, id, name, businessTypeId, ...fields } = row;
  return {
    // id, name and type first: the order the API has always answered in
    id,
    name,
    businessTypeId,
    businessType: typeName === null ? null : { id: businessTypeId, name: typeName },
    ...fields,
    qrMessage: fields.qrMessage || DEFAULT_QR_MESSAGE,
    successMessage: fields.successMessage || DEFAULT_SUCCESS_MESSAGE,
    createdAt: fields.createdAt.toISOString(),
    ownerId,
  };
}

/** The public view: only the keys PUBLIC_BUSINESS_KEYS names, so a new private column cannot leak. */
export function toPublicBusiness(row: BusinessWithType): PublicBusiness {
  const full = toBusiness(row);
  return Object.fromEntries(PUBLIC_BUSINESS_KEYS.map((key) => [key, full[key]])) as PublicBusiness;
}

export type { ConsentExportRow };

const consentRecord = (e: ConsentExportRow) => [e.phone, e.kind, e.source, e.at.toISOString(), e.ip, e.userAgent, e.consentText];
/** Events per page of the streamed export: one short read each, the server answering between them. */
export const CONSENT_PAGE = 1000;
export const CONSENT_CSV_HEADER = ["phone", "event", "source", "time", "ip", "user agent", "text"] as const;

export const LOGO_NOT_YOURS = "The logo must be an image you uploaded. Please upload the logo again.";
export const SAMPLE_NOT_YOURS = "The sample product image must be an image you uploaded. Please upload the image again.";

type ImageField = "logoImagePath" | "sampleImagePath";

export function createBusinessesService({ repos }: { repos: Repos }) {
  function owned(actor: Principal, id: number): BusinessWithType {
    const row = repos.businesses.findById(id);
    if (!row || !canManage(actor, row)) throw new NotFoundError(BUSINESS_NOT_FOUND);
    return row;
  }

  function checkType(businessTypeId: number, currentTypeId?: number): void {
    const type = repos.businessTypes.findById(businessTypeId);
    // An inactive type may stay on a business that already has it, but is not offered for new choices.
    if (!type || (!type.isActive && type.id !== currentTypeId)) {
      throw new ValidationError("Business type is required", { businessTypeId: "Business type is required" });
    }
  }

  /** One business per keyword on the (one) sender number: another's keyword is a 409 naming the field. */
  function checkKeywordFree(keyword: string | null, exceptId?: number): void {
    const holder = keyword ? repos.businesses.findByKeyword(keyword) : undefined;
    if (holder && holder.id !== exceptId) throw new ConflictError(KEYWORD_TAKEN, { keyword: KEYWORD_TAKEN });
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


  /**
   * The consent evidence of a business a page of events at a time (its own events by id, with the few all-business
   * ones of its subscribers merged in where they fall), so 100,000 subscribers' evidence never holds the server long.
   */
  async function* consentPages(id: number): AsyncGenerator<ConsentExportRow[]> {
    const shared = repos.consentEvents.allBusinessOfSubscribers(id);
    let next = 0;
    for (let after = 0, more = true; more; ) {
      const page = repos.consentEvents.pageOfBusiness(id, after, CONSENT_PAGE);
      more = page.length === CONSENT_PAGE;
      const upTo = more ? page.at(-1)!.id : Number.POSITIVE_INFINITY;
      const merged = [...page];
      while (next < shared.length && shared[next]!.id <= upTo) merged.push(shared[next++]!);
      merged.sort((a, b) => a.id - b.id);
      yield merged;
      if (more) {
        after = page.at(-1)!.id;
        await nextTurn();
      }
    }
  }
  return {
    /** Public list: active businesses only, public fields. */
    listPublic(): PublicBusiness[] {
      return repos.businesses.listActive().map(toPublicBusiness);
    },
    /** GET ListBusinesses: the public list a page at a time, by name; a search in the names, a filter by type. */
    pagePublic(query: Record<string, string | undefined>): Page<PublicBusiness> {
      const errors: Record<string, string> = {};
      const { after, limit, search } = checkNamePageParams(query, errors);
      const businessTypeId = query.businessTypeId ? parseIdText(query.businessTypeId) : null;
      if (query.businessTypeId && businessTypeId === null) errors.businessTypeId = BUSINESS_TYPE_FILTER_INVALID;
      throwIfInvalid(errors);
      const filter = { search, businessTypeId };
      const rows = repos.businesses.pageActive(filter, after, limit + 1);
      return pageOf(rows, limit, nameKeyset, repos.businesses.countActive(filter), (shown) => shown.map(toPublicBusiness));
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
    /** The owner's (or admin's, or the operator's) view, including inactive businesses. */
    get(actor: Principal, id: number): Business {
      return toBusiness(owned(actor, id));
    },
    /** The full record when `actor` may manage business `id`; undefined otherwise (no error). */
    findManaged(actor: Principal, id: number): Business | undefined {
      const row = repos.businesses.findById(id);
      return row && canManage(actor, row) ? toBusiness(row) : undefined;
    },
    /** "My businesses": the ones this user owns (an admin too: their own, not everyone's). */
    listMine(user: UserRow): Business[] {
      return repos.businesses.listByOwner(user.id).map(toBusiness);
    },
    /** GET GetMySubscriberCounts: active subscribers of each of the user's businesses (0 included). */
    mySubscriberCounts(user: UserRow): { businessId: number; subscribers: number }[] {
      const counted = new Map(repos.subscriptions.activeCountsOfOwner(user.id).map((r) => [r.businessId, r.subscribers]));
      return repos.businesses.listByOwner(user.id).map((b) => ({ businessId: b.id, subscribers: counted.get(b.id) ?? 0 }));
    },
    /** Every business the actor manages, newest first, or only those of one owner. */
    list(actor: Principal, filter: { ownerId?: number } = {}): Business[] {
      const ownerId = ownerScope(actor) ?? filter.ownerId;
      if (filter.ownerId !== undefined && ownerId !== filter.ownerId) return [];
      const rows = ownerId === undefined ? repos.businesses.listAll() : repos.businesses.listByOwner(ownerId);
      return rows.map(toBusiness);
    },
    create(user: UserRow, input: unknown): Business {
      const data = validate(businessSchema, input);
      return repos.transaction(() => {
        checkType(data.businessTypeId);
        checkKeywordFree(data.keyword);
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
    update(actor: Principal, id: number, input: unknown): Business {
      const current = owned(actor, id);
      const data = validate(businessSchema, keepOmittedFields(businessSchema, current, input));
      const actorId = actingUserId(actor);
      const owners = actorId === null ? [current.ownerId] : [actorId, current.ownerId];
      return repos.transaction(() => {
        checkType(data.businessTypeId, current.businessTypeId);
        checkKeywordFree(data.keyword, id);
        repos.businesses.update(id, {
          ...data,
          logoImagePath: imagePath("logoImagePath", data.logoImagePath, owners, current.logoImagePath),
          sampleImagePath: imagePath("sampleImagePath", data.sampleImagePath, owners, current.sampleImagePath),
        });
        return toBusiness(repos.businesses.findById(id)!);
      });
    },
    /** Sets (or with null / "" clears) the join keyword alone (`nearcast businesses update --keyword`): the other
     * fields are left as stored, even one a newer rule would refuse. */
    setKeyword(actor: Principal, id: number, keyword: unknown): Business {
      owned(actor, id);
      const { keyword: word } = validate(v.object({ keyword: keywordField }), { keyword });
      return repos.transaction(() => {
        checkKeywordFree(word, id);
        repos.businesses.update(id, { keyword: word });
        return toBusiness(repos.businesses.findById(id)!);
      });
    },
    /**
     * The business's consent evidence as CSV (issue 11): phone, event, source, time (ISO), ip, user agent and the
     * exact text the person was shown, a page at a time (consentPages). Another owner's business is not found, as
     * everywhere; the actor is checked at the call, before any of it is read: a refusal is an error, not a broken file.
     */
    consentCsv(actor: Principal, id: number): { business: BusinessWithType; chunks: AsyncGenerator<string> } {
      const business = owned(actor, id);
      async function* chunks(): AsyncGenerator<string> {
        yield toCsv(CONSENT_CSV_HEADER, []);
        for await (const page of consentPages(id)) yield csvRecords(page.map(consentRecord));
      }
      return { business, chunks: chunks() };
    },
    /** The same evidence as rows, a page at a time (`nearcast customers consent`'s table). */
    consentEvents(actor: Principal, id: number): { business: BusinessWithType; pages: AsyncGenerator<ConsentExportRow[]> } {
      return { business: owned(actor, id), pages: consentPages(id) };
    },
    remove(actor: Principal, id: number): void {
      owned(actor, id);
      repos.businesses.delete(id);
    },
  };
}

export type BusinessesService = ReturnType<typeof createBusinessesService>;
