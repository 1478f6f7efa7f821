import { ExternalLink } from "lucide-react";

/** Independent, free help (code of practice 1.8): the same organisations as the responsible-play docs. */
export const HELP_ORGANISATIONS = [
  {
    name: "GamCare",
    href: "https://www.gamcare.org.uk",
    offer: "the National Gambling Helpline, 0808 8020 133, free and open 24 hours a day",
  },
  {
    name: "BeGambleAware",
    href: "https://www.begambleaware.org",
    offer: "advice, a self-assessment and support near you",
  },
  {
    name: "Citizens Advice",
    href: "https://www.citizensadvice.org.uk/debt-and-money/",
    offer: "free help with debt and money worries",
  },
  {
    name: "Samaritans",
    href: "https://www.samaritans.org",
    offer: "someone to talk to, any time, on 116 123",
  },
  {
    name: "Mind",
    href: "https://www.mind.org.uk",
    offer: "support with your mental health",
  },
] as const;

export function HelpLinks() {
  return (
    <section aria-labelledby="help-heading" className="flex flex-col gap-3">
      <h2 id="help-heading" className="text-xl font-semibold">
        Where to get help
      </h2>
      <p className="text-muted-foreground">
        If competitions stop being fun, or money or your mood is a worry, these organisations are free, confidential and
        independent of LabCash.
      </p>
      <ul className="flex flex-col gap-2">
        {HELP_ORGANISATIONS.map((org) => (
          <li key={org.name}>
            <a href={org.href} className="inline-flex items-center gap-1 font-medium underline" rel="noreferrer">
              {org.name}
              <ExternalLink aria-hidden className="size-3.5" />
            </a>{" "}
            – {org.offer}.
          </li>
        ))}
      </ul>
    </section>
  );
}
