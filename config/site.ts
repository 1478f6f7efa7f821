// Site-wide identity and settings. Change the operator here; every page reads it.
// The public origin is not here: it is SITE_URL (lib/site-url.ts), read on the server at run time,
// while this file also reaches client components.
export const siteConfig = {
  name: "LabCash",
  tagline: "Win Big, Spend Small",
  description:
    "Prize competitions for tech lovers: enter draws for phones, laptops and consoles with credit bought in advance. Tickets from £0.25, fair draws you can verify yourself.",
  operator: {
    company: "LabCash Trading",
    notice: "LabCash is a trading name of LabCash Trading Ltd (company number withheld)",
  },
  social: {
    label: "LabCash on X",
    href: "https://x.com/labcash",
  },
  locale: "en-GB",
} as const;

export const titleTemplate = `%s · ${siteConfig.name} – ${siteConfig.tagline}`;
export const homeTitle = `${siteConfig.name} – ${siteConfig.tagline}`;
