import { useEffect, useState } from "react";
import type { BusinessType } from "../../../src/schemas/business-types.ts";
import { businessApi } from "./api.ts";
import { SelectField } from "../../shared/components/ChoiceFields.tsx";
import type { BoundText } from "../../shared/components/form.tsx";

/** The type dropdown offers active types only, plus the business's current type if it has since been retired. */
export function offeredTypes(types: BusinessType[], currentId: number | null): BusinessType[] {
  return types.filter((t) => t.isActive || t.id === currentId);
}

/** Every business type, loaded once when the form opens (a failure is logged: the dropdown stays empty). */
export function useBusinessTypes(): BusinessType[] {
  const [types, setTypes] = useState<BusinessType[]>([]);
  useEffect(() => {
    let live = true;
    businessApi
      .types()
      .then((list) => live && setTypes(list))
      .catch((err) => console.error("Error loading business types:", err));
    return () => {
      live = false;
    };
  }, []);
  return types;
}

/** The Business Type field; spread `form.bind("businessTypeId")` into it. */
export function BusinessTypeSelect({ types, currentId, ...bound }: BoundText & { types: BusinessType[]; currentId: number | null }) {
  const choices = offeredTypes(types, currentId).map((t) => ({ value: String(t.id), label: t.isActive ? t.name : `${t.name} (inactive)` }));
  return <SelectField label="Business Type" placeholder="Select a business type" required choices={choices} {...bound} name="businessTypeId" />;
}
