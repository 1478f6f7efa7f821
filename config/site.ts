// Site-wide identity and settings. Change the operator here; every page reads it.
export const siteConfig = {
  name: "LabCash",
  tagline: "Win Big, Spend Small",
  description:
    "Prize competitions for tech lovers: enter draws for phones, laptops and consoles with credit bought in advance. Tickets from £0.25, fair draws you can verify yourself.",
  // The canonical origin, used for sitemap.xml, robots.txt and Open Graph URLs.
  url: process.env.NEXT_PUBLIC_SITE_URL ?? "http://localhost:3000",
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
