// The spec's sentences (sections 5 and 8) that both the server (or the CLI) and the web UI say, written once: the
// server answers with them and the screens show the same words before anything is sent, or when the server's own
// sentence cannot be read. Sentences one side alone says stay beside the code that says them.

/** A wrong email or password (the login screen's 401 text, and the API's). */
export const INVALID_LOGIN = "Invalid email or password. Please check your credentials and try again.";
/** A token that no longer opens a session. */
export const SESSION_EXPIRED = "Your session has expired. Please log in again.";

/** A business (logo or sample) image of another format, or no image at all. */
export const INVALID_IMAGE = "Please select a valid image file (JPG, PNG, GIF, BMP)";
/** A business image over MAX_IMAGE_BYTES. */
export const IMAGE_TOO_LARGE = "File size cannot exceed 5MB";
/** The broadcast image's own wording of the same two refusals (spec section 5). */
export const BROADCAST_INVALID_IMAGE = "Invalid file type. Only image files are allowed.";
export const BROADCAST_IMAGE_TOO_LARGE = "File size cannot exceed 5MB.";

/** A broadcast without text (after trimming). */
export const MESSAGE_REQUIRED = "Message text is required";
/** A broadcast for someone else's business (the 403). */
export const NOT_YOUR_BUSINESS = "You can only broadcast messages for businesses you created.";

/** No business with that id that this person may see. */
export const BUSINESS_NOT_FOUND = "Business not found.";
/** A business whose type is gone. */
export const UNKNOWN_TYPE = "Unknown Type";

/** A phone field left empty (customer forms, the subscribe page). */
export const PHONE_REQUIRED = "Phone number is required";
/** A phone number that cannot be a real one. */
export const INVALID_PHONE = "Please enter a valid phone number";
/** SMS or WhatsApp not chosen. */
export const PREFERENCE_REQUIRED = "Please select a contact preference";
/** A request that never reached the server (the browser is offline, the server is down). */
export const CONNECTION_ERROR = "Unable to connect to server. Please check your internet connection.";
