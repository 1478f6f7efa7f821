// The one line at the top of /admin/system. The page lists what may need a person, section by section; the verdict
// only counts that list, so a new section joins it by adding its entry, and the line and the sections never differ.

/** Something a section of /admin/system may hold that needs a person: how many, in words for one and for several. */
export type SystemConcern = {
  /** The section's anchor on the page (its id), which the verdict links. */
  section: string;
  count: number;
  one: string;
  /** For several; left out for what can only be one (the scheduled job stopped). */
  many?: string;
};

export type SystemVerdict = {
  /** "All well", or "N things need a person". */
  headline: string;
  /** The concerns with something in them, as "2 failed e-mails", each with its section. */
  items: { section: string; words: string }[];
};

export function systemVerdict(concerns: readonly SystemConcern[]): SystemVerdict {
  const present = concerns.filter((c) => c.count > 0);
  const total = present.reduce((sum, c) => sum + c.count, 0);
  return {
    headline:
      total === 0
        ? "All well"
        : `${total.toLocaleString("en-GB")} ${total === 1 ? "thing needs" : "things need"} a person`,
    items: present.map((c) => ({
      section: c.section,
      words: `${c.count.toLocaleString("en-GB")} ${c.count === 1 ? c.one : (c.many ?? c.one)}`,
    })),
  };
}
