// The choices the responsible-play forms offer; the server actions accept exactly these.

/** take_break's periods, as SQL names them. */
export const BREAK_PERIODS = ["1 week", "1 month", "3 months"] as const;

/** Self-exclusion lengths in months (self_exclude takes 6 or more), with their names. */
export const SELF_EXCLUSION_OPTIONS = [
  { months: 6, label: "6 months" },
  { months: 12, label: "1 year" },
  { months: 24, label: "2 years" },
  { months: 60, label: "5 years" },
] as const;
