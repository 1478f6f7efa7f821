import type { Metadata } from "next";
import { Link } from "@/components/ui/link";
import { indexPage as home } from "content-collections";
import { Quote } from "lucide-react";
import { homeTitle } from "@/config/site";
import { buttonClasses } from "@/components/ui/button";
import { ContentIcon } from "@/components/landing/icons";
import { LaunchCountdown } from "@/components/landing/launch-countdown";
import { LiveCompetitions } from "@/components/competitions/live-competitions";
import { FeaturedPrize } from "@/components/landing/featured-prize";
import { NextDraw } from "@/components/landing/next-draw";
import { launchSpace } from "@/lib/competitions/launch-space";
import { phaseOf, requestTime } from "@/lib/competitions/status";
import { listPublicCompetitions } from "@/lib/data/competitions";
import { getUpcomingLaunch } from "@/lib/data/settings";
import { cn } from "@/lib/utils";

export const metadata: Metadata = {
  title: { absolute: homeTitle },
  description: home.description,
  alternates: { canonical: "/" },
};

// Static, regenerated at most every few seconds and at once when the app changes a competition or the
// settings (lib/cache/public-pages.ts; next.config's expireTime caps how stale it can be served).
export const revalidate = 2;

/** How many live competitions follow the featured one on the home page. */
const MORE_LIVE = 6;

export default async function HomePage() {
  // The launch countdown shows until the moment in the launch_at setting or the first competition opens,
  // whichever comes first; then the next draw (checked at each regeneration; lib/competitions/launch-space.ts).
  const [launchAt, competitions] = await Promise.all([getUpcomingLaunch(), listPublicCompetitions()]);
  const now = requestTime();
  const space = launchSpace(competitions, launchAt, now);
  // Live ones come first, closing soonest first (list_competitions): the first is the featured prize.
  const [featured, ...moreLive] = competitions.filter((c) => phaseOf(c, now) === "live");
  const heroLinks = (
    <div className={cn("flex flex-wrap gap-3", featured ? "mt-6" : "mt-10 justify-center")}>
      {home.hero.links.map((link, i) => (
        <Link key={link.to} href={link.to} className={buttonClasses(i === 0 ? "primary" : "outline", "lg")}>
          <ContentIcon name={link.icon} />
          {link.label}
        </Link>
      ))}
    </div>
  );
  return (
    <>
      <section aria-labelledby="hero-title" className="relative overflow-hidden border-b border-border">
        <div
          aria-hidden
          className="absolute inset-0 -z-10 bg-[radial-gradient(ellipse_at_top,var(--color-primary-soft),transparent_65%)]"
        />
        {featured ? (
          // A prize on the first screen (docs/decisions/051): on a phone the title, then the prize, then the rest;
          // on a wide screen the words on the left and the prize beside them.
          <div className="mx-auto grid max-w-7xl gap-5 px-4 pt-5 pb-10 sm:px-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,1.1fr)] lg:grid-rows-[1fr_1fr] lg:gap-x-12 lg:gap-y-6 lg:py-10">
            <div className="lg:self-end">
              <HeroEyebrow />
              <h1 id="hero-title" className="mt-3 text-3xl font-extrabold tracking-tight text-balance sm:text-5xl">
                {home.hero.title} <span className="text-primary-text">{home.hero.highlight}</span>
              </h1>
            </div>
            <FeaturedPrize competition={featured} now={now} className="lg:col-start-2 lg:row-span-2 lg:row-start-1" />
            <div className="lg:col-start-1 lg:row-start-2">
              <p className="max-w-2xl text-lg text-muted-foreground">{home.hero.description}</p>
              {heroLinks}
            </div>
          </div>
        ) : (
          <div className="mx-auto max-w-4xl px-4 py-20 text-center sm:px-6 sm:py-28">
            <HeroEyebrow />
            <h1 id="hero-title" className="mt-6 text-4xl font-extrabold tracking-tight text-balance sm:text-6xl">
              {home.hero.title} <span className="text-primary-text">{home.hero.highlight}</span>
            </h1>
            <p className="mx-auto mt-6 max-w-2xl text-lg text-muted-foreground">{home.hero.description}</p>
            {heroLinks}
          </div>
        )}
      </section>

      <section aria-labelledby="live-title" className="mx-auto max-w-7xl px-4 py-16 sm:px-6">
        <div className="mb-8 flex flex-wrap items-end justify-between gap-4">
          <div>
            <h2 id="live-title" className="text-3xl font-bold tracking-tight">
              {featured ? "More live competitions" : "Live competitions"}
            </h2>
            <p className="mt-2 text-muted-foreground">Tickets from £0.25. Every draw verifiable.</p>
          </div>
          <Link href="/competitions" className={buttonClasses("link", "text", "h-10")}>
            View all competitions
          </Link>
        </div>
        <LiveCompetitions competitions={moreLive.slice(0, MORE_LIVE)} now={now} featuredShown={Boolean(featured)} />
      </section>

      {home.sections.map((section) => (
        <section
          key={section.id}
          id={section.id}
          aria-labelledby={`${section.id}-title`}
          className="border-y border-border bg-muted/40"
        >
          <div className="mx-auto max-w-7xl px-4 py-16 sm:px-6">
            <h2 id={`${section.id}-title`} className="text-3xl font-bold tracking-tight">
              {section.title}
            </h2>
            <p className="mt-2 text-muted-foreground">{section.description}</p>
            <ol className="mt-10 grid gap-6 md:grid-cols-3">
              {section.steps.map((step, i) => (
                <li key={step.title} className="rounded-2xl border border-border bg-card p-6">
                  <div className="flex items-center gap-3">
                    <span className="inline-flex size-10 items-center justify-center rounded-full bg-primary text-primary-foreground">
                      <ContentIcon name={step.icon} className="size-5" />
                    </span>
                    <span className="text-sm font-semibold text-muted-foreground">Step {i + 1}</span>
                  </div>
                  <h3 className="mt-4 text-lg font-semibold">{step.title}</h3>
                  <p className="mt-2 text-muted-foreground">{step.description}</p>
                </li>
              ))}
            </ol>
          </div>
        </section>
      ))}

      <section aria-labelledby="features-title" className="mx-auto max-w-7xl px-4 py-16 sm:px-6">
        <h2 id="features-title" className="text-3xl font-bold tracking-tight">
          {home.features.title}
        </h2>
        <p className="mt-2 text-muted-foreground">{home.features.description}</p>
        <ul className="mt-10 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {home.features.items.map((f) => (
            <li key={f.title} className="rounded-2xl border border-border p-6">
              <ContentIcon name={f.icon} className="size-6 text-primary-text" />
              <h3 className="mt-4 font-semibold">{f.title}</h3>
              <p className="mt-2 text-sm text-muted-foreground">{f.description}</p>
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="testimonials-title" className="border-y border-border bg-muted/40">
        <div className="mx-auto max-w-7xl px-4 py-16 sm:px-6">
          <h2 id="testimonials-title" className="text-3xl font-bold tracking-tight">
            {home.testimonials.title}
          </h2>
          <p className="mt-2 text-muted-foreground">{home.testimonials.description}</p>
          <ul className="mt-10 grid gap-6 md:grid-cols-3">
            {home.testimonials.items.map((t) => (
              <li key={t.name}>
                <figure className="h-full rounded-2xl border border-border bg-card p-6">
                  <Quote aria-hidden className="size-6 text-primary-text" />
                  <blockquote className="mt-3">{t.quote}</blockquote>
                  <figcaption className="mt-4 text-sm">
                    <span className="font-semibold">{t.name}</span>{" "}
                    <span className="text-muted-foreground">· {t.detail}</span>
                  </figcaption>
                </figure>
              </li>
            ))}
          </ul>
        </div>
      </section>

      {space.kind === "countdown" ? <LaunchCountdown launchAt={space.launchAt} /> : null}
      {space.kind === "next-draw" ? <NextDraw competition={space.competition} /> : null}

      <section aria-labelledby="cta-title" className="mx-auto max-w-7xl px-4 py-16 sm:px-6">
        <div className="rounded-2xl bg-primary px-6 py-14 text-center text-primary-foreground">
          <h2 id="cta-title" className="text-3xl font-bold tracking-tight">
            {home.cta.title}
          </h2>
          <p className="mx-auto mt-3 max-w-xl">{home.cta.description}</p>
          <div className="mt-8 flex flex-wrap justify-center gap-3">
            {home.cta.links.map((link, i) => (
              <Link
                key={link.to}
                href={link.to}
                className={
                  i === 0
                    ? "inline-flex h-12 items-center rounded-md bg-primary-foreground px-6 font-medium text-primary hover:opacity-90"
                    : "inline-flex h-12 items-center rounded-md border border-primary-foreground/60 px-6 font-medium hover:bg-primary-foreground/10"
                }
              >
                {link.label}
              </Link>
            ))}
          </div>
        </div>
      </section>
    </>
  );
}

function HeroEyebrow() {
  return (
    <p className="inline-flex rounded-full border border-border bg-background px-3 py-1 text-sm font-medium text-primary-text">
      {home.hero.eyebrow}
    </p>
  );
}
