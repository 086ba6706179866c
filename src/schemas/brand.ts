/** The install's name and contact address until the admin saves their own (the brandName and contactEmail settings);
 * a file of its own so that the public pages' scripts name them without the settings' schemas. */
export const DEFAULT_BRAND = { brandName: "Nearcast", contactEmail: "hello@nearcast.app" } as const;
