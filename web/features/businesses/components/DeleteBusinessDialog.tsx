import type { Business } from "../../../../src/schemas/businesses.ts";
import { ConfirmDialog } from "../../../shared/components/ConfirmDialog.tsx";

/** From this many subscribers on, the owner types the business's name to delete it (a slip would cost many people). */
export const TYPE_NAME_FROM = 50;
export const POSTERS_STOP = "Every printed poster and QR code of it stops working: people who scan one find nothing to join.";

/** "3,004 people are subscribed to Rosie's. They get no more texts from it." (or nobody, or not known). */
export function whoIsLost(name: string, subscribers: number | null): string {
  if (subscribers === null) return `Everyone subscribed to ${name} stops getting its texts.`;
  if (subscribers === 0) return `Nobody is subscribed to ${name} yet.`;
  const people = subscribers === 1 ? "1 person is" : `${subscribers.toLocaleString("en-US")} people are`;
  return `${people} subscribed to ${name}. ${subscribers === 1 ? "They get" : "They all get"} no more texts from it.`;
}

/**
 * The question before a business is deleted: how many people it reaches and that its posters stop working, in the
 * app's own dialog. A big list (or one whose size is not known) asks for the business's name to be typed.
 */
export function DeleteBusinessDialog({
  business,
  subscribers,
  onConfirm,
  onCancel,
}: {
  business: Pick<Business, "name">;
  /** Active subscribers; null when the count could not be read. */
  subscribers: number | null;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const big = subscribers === null || subscribers >= TYPE_NAME_FROM;
  return (
    <ConfirmDialog
      title={`Delete ${business.name}?`}
      confirmLabel="Delete business"
      danger
      typeToConfirm={big ? business.name : undefined}
      onConfirm={onConfirm}
      onCancel={onCancel}
    >
      <p data-testid="delete-who">{whoIsLost(business.name, subscribers)}</p>
      <p>{POSTERS_STOP}</p>
      <p>This cannot be undone.</p>
    </ConfirmDialog>
  );
}
