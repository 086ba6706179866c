// Coupons at the counter (issue 25): the Redeem screen. What the rest of web/ may import.
export { RedeemPage } from "./RedeemPage.tsx";
