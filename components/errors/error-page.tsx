import { Link } from "@/components/ui/link";
import { ArrowLeft, BookOpen, Gift, Trophy } from "lucide-react";
import { buttonClasses } from "@/components/ui/button";
import { UNEXPECTED_ERROR } from "@/lib/http/error-words";
import { RequestedPath } from "./requested-path";

export const NOT_FOUND_TEXT = "The page you're looking for doesn't exist. Maybe it's competing in another dimension?";

type Props =
  | {
      kind: "not-found";
      /** 'route': no such route; 'validation': the route exists but its parameter is invalid. */ reason?:
        "route" | "validation";
    }
  | { kind: "error"; message?: string | null; reference?: string };

/** The error page of spec §2, shared by not-found, error and global-error. */
export function ErrorPage(props: Props & { retry?: React.ReactNode }) {
  const notFound = props.kind === "not-found";
  return (
    <section
      aria-labelledby="error-title"
      className="mx-auto flex max-w-2xl flex-col items-center px-4 py-16 text-center sm:py-24"
    >
      <Link
        href="/"
        className="mb-10 inline-flex items-center gap-1.5 rounded-md text-sm font-medium text-muted-foreground hover:text-foreground"
      >
        <ArrowLeft aria-hidden className="size-4" />
        Back to home
      </Link>
      <div
        aria-hidden
        className="mb-6 flex size-20 items-center justify-center rounded-full bg-primary-soft text-primary-text"
      >
        <Gift className="size-10" />
      </div>
      <p className="text-sm font-semibold tracking-widest text-primary-text uppercase">
        {notFound ? "Error 404" : "Error"}
      </p>
      <h1 id="error-title" className="mt-2 text-4xl font-extrabold tracking-tight sm:text-5xl">
        Oops! No prize here!
      </h1>
      <h2 className="mt-6 text-2xl font-semibold">{notFound ? "Page Not Found" : "Something went wrong"}</h2>
      <p className="mt-3 text-lg text-muted-foreground">
        {notFound ? NOT_FOUND_TEXT : props.message || UNEXPECTED_ERROR}
      </p>
      {notFound ? (
        <p className="mt-2 font-mono text-sm text-muted-foreground">
          <RequestedPath prefix={props.reason === "validation" ? "Page Not Found: " : "Page not found: "} />
        </p>
      ) : props.reference ? (
        <p className="mt-2 font-mono text-xs text-muted-foreground">Reference: {props.reference}</p>
      ) : null}
      <div className="mt-10 flex flex-wrap justify-center gap-3">
        {props.retry}
        <Link href="/" className={buttonClasses("primary", "lg")}>
          <Trophy aria-hidden />
          Back to Competitions
        </Link>
        <Link href="/competitions" className={buttonClasses("outline", "lg")}>
          <Gift aria-hidden />
          Browse Prizes
        </Link>
        <Link href="/docs/getting-started" className={buttonClasses("ghost", "lg")}>
          <BookOpen aria-hidden />
          Docs
        </Link>
      </div>
    </section>
  );
}
