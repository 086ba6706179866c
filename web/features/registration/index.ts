// Carrier registration (the kit of the fields Twilio's toll-free and 10DLC forms ask for): what the rest of web/ may import.
export { RegistrationPage } from "./RegistrationPage.tsx";
export { RegistrationNote } from "./RegistrationNote.tsx";
