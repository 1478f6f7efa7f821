import Link from "next/link";
import { Construction } from "lucide-react";
import { buttonClasses } from "@/components/ui/button";

/** An honest placeholder for a screen that is not built yet: says what it will do. */
export function ComingSoon({
  title,
  children,
  links = [],
}: {
  title: string;
  children: React.ReactNode;
  links?: { label: string; href: string }[];
}) {
  return (
    <section className="mx-auto max-w-2xl px-4 py-20 text-center sm:px-6">
      <Construction aria-hidden className="mx-auto size-12 text-primary-text" />
      <h1 className="mt-6 text-4xl font-extrabold tracking-tight">{title}</h1>
      <p className="mt-2 text-sm font-semibold tracking-wide text-muted-foreground uppercase">Coming soon</p>
      <div className="mt-6 space-y-3 text-lg text-muted-foreground">{children}</div>
      <div className="mt-10 flex flex-wrap justify-center gap-3">
        {links.map((l, i) => (
          <Link key={l.href} href={l.href} className={buttonClasses(i === 0 ? "primary" : "outline", "lg")}>
            {l.label}
          </Link>
        ))}
      </div>
    </section>
  );
}
