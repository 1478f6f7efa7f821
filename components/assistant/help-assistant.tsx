"use client";

import dynamic from "next/dynamic";

// The prompt's code loads after the page has hydrated, in its own chunk, so pages that show the box send
// no more JavaScript up front; until then a box of the same size holds its place.
const HelpAssistantForm = dynamic(() => import("./help-assistant-form").then((m) => m.HelpAssistantForm), {
  ssr: false,
  loading: () => <div aria-hidden className="h-36" />,
});

/** The help assistant ("Send prompt"), as /docs, /complaints and the account pages show it. */
export function HelpAssistant() {
  return (
    <section aria-labelledby="help-assistant" className="mt-10 rounded-lg border border-border p-4">
      <h2 id="help-assistant" className="mb-3 text-lg font-semibold">
        Need help?
      </h2>
      <HelpAssistantForm />
    </section>
  );
}
