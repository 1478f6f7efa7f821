import { Link } from "@/components/ui/link";
import { Search } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";

/** Find one ticket by its number: a plain GET form, so it works without script and the result has a URL. */
export function TicketSearch({
  action,
  value,
  error,
  searching,
}: {
  action: string;
  value: string;
  error: string | null;
  searching: boolean;
}) {
  return (
    <form action={action} method="get" role="search" aria-label="Tickets" className="flex flex-wrap items-start gap-3">
      <Field
        id="entry-list-ticket"
        label="Find a ticket by number"
        hint="The number on your receipt or in My entries, such as 42."
        errors={error ? [error] : undefined}
        className="w-full sm:w-72"
      >
        {(control) => <Input {...control} name="ticket" inputMode="numeric" autoComplete="off" defaultValue={value} />}
      </Field>
      <div className="flex gap-2 sm:mt-6">
        <Button type="submit" variant="outline">
          <Search aria-hidden />
          Find
        </Button>
        {searching ? (
          <Link
            href={action}
            className="inline-flex h-10 items-center px-2 text-sm font-medium text-primary-text underline underline-offset-4"
          >
            Show every ticket
          </Link>
        ) : null}
      </div>
    </form>
  );
}
