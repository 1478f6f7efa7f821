import { Link } from "@/components/ui/link";
import { footerNav } from "@/config/nav";
import { siteConfig } from "@/config/site";
import { Logo } from "./logo";
import { CurrentYear } from "./current-year";

// Linked from every page (code of practice 1.2): how to complain and the independent body behind us.
const helpLinks = [{ label: "Complaints", href: "/complaints" }];

export function SiteFooter() {
  return (
    <footer className="border-t border-border bg-muted/40">
      <div className="mx-auto grid max-w-7xl gap-8 px-4 py-10 sm:px-6 md:grid-cols-[1.5fr_repeat(4,1fr)_1fr]">
        <div className="space-y-3">
          <Logo />
          <p className="max-w-xs text-sm text-muted-foreground">
            {siteConfig.tagline}. Prize draws for UK residents aged 18 or over.
          </p>
        </div>
        {footerNav.map((group) => (
          <nav key={group.title} aria-label={group.title}>
            <h2 className="text-sm font-semibold">{group.title}</h2>
            <ul className="mt-3 space-y-2 text-sm">
              {group.links.map((link) => (
                <li key={link.href}>
                  <Link href={link.href} className="text-muted-foreground hover:text-foreground hover:underline">
                    {link.label}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
        ))}
        <nav aria-label="Help">
          <h2 className="text-sm font-semibold">Help</h2>
          <ul className="mt-3 space-y-2 text-sm">
            {helpLinks.map((link) => (
              <li key={link.href}>
                <Link href={link.href} className="text-muted-foreground hover:text-foreground hover:underline">
                  {link.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <div>
          <h2 className="text-sm font-semibold">Follow</h2>
          <ul className="mt-3 space-y-2 text-sm">
            <li>
              <a
                href={siteConfig.social.href}
                rel="noopener noreferrer"
                target="_blank"
                className="text-muted-foreground hover:text-foreground hover:underline"
              >
                {siteConfig.social.label}
                <span className="sr-only"> (opens in a new tab)</span>
              </a>
            </li>
          </ul>
        </div>
      </div>
      <div className="border-t border-border">
        <div className="mx-auto flex max-w-7xl flex-col gap-1 px-4 py-5 text-xs text-muted-foreground sm:px-6 md:flex-row md:justify-between">
          <p>
            © <CurrentYear /> {siteConfig.name}. All rights reserved.
          </p>
          <p>{siteConfig.operator.notice}</p>
        </div>
      </div>
    </footer>
  );
}
