import { Clock, MailCheck } from "lucide-react";

// The two promises every complaint gets (code of practice 1.2); submit_complaint works out the dates.
const DEADLINES = [
  { icon: MailCheck, when: "Within 2 working days", what: "we acknowledge your complaint." },
  { icon: Clock, when: "Within 28 days", what: "we send you our final answer." },
] as const;

export function ComplaintDeadlines() {
  return (
    <ul className="grid gap-4 sm:grid-cols-2">
      {DEADLINES.map(({ icon: Icon, when, what }) => (
        <li key={when} className="flex items-start gap-3 rounded-xl border border-border bg-card p-4">
          <Icon aria-hidden className="mt-0.5 size-5 shrink-0 text-primary-text" />
          <p>
            <strong className="font-semibold">{when}</strong> {what}
          </p>
        </li>
      ))}
    </ul>
  );
}
