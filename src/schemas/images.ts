/** The largest image a business or a broadcast may upload (the spec's 5 MB). */
export const MAX_IMAGE_BYTES = 5_242_880;
