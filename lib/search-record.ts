/** One searchable section of a docs page (spec §2): the id is the page path plus the heading anchor. */
export type SearchRecord = {
  id: string;
  title: string;
  /** The trail of headings above this section, page title first. */
  titles: string[];
  content: string;
  level: 1 | 2 | 3 | 4 | 5 | 6;
};
