/** A UK postcode somewhere in an address ("HG1 2AB"); SQL's private.uk_postcode has the last word. */
export const UK_POSTCODE = /\b[A-Z]{1,2}[0-9][A-Z0-9]? ?[0-9][A-Z]{2}\b/i;
