// A file of its own: the poster's words and the web's route table name these paths without the registration kit's
// schema (src/schemas/registration.ts), which would come along into the public pages' scripts.

/** The public page a reviewer opens (no login): the programme's facts, rendered by the server. */
export const programPath = (businessId: number) => `/program?id=${businessId}`;
/** The poster, public for an active business: the opt-in image the forms ask for. */
export const programPosterPath = (businessId: number) => `/program/poster.pdf?id=${businessId}`;
