import { Alert } from "@/components/ui/alert";

/** What a list page's URL asked for that its parser could not use (a bad month, an unknown kind): said, not hidden. */
export function IgnoredFilters({ notes }: { notes: string[] }) {
  if (!notes.length) return null;
  return (
    <Alert variant="warning">
      {notes.map((note) => (
        <p key={note}>{note}</p>
      ))}
    </Alert>
  );
}
