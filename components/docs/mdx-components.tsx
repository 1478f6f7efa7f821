import { Link } from "@/components/ui/link";
import type { ComponentProps } from "react";
import { CopyCodeButton } from "./copy-code-button";

function A({ href = "", ...props }: ComponentProps<"a">) {
  if (href.startsWith("/") || href.startsWith("#")) return <Link href={href} {...props} />;
  return <a href={href} rel="noopener noreferrer" target="_blank" {...props} />;
}

function Pre(props: ComponentProps<"pre">) {
  return (
    <div className="group relative" data-code-block>
      {/* Focusable so keyboard users can scroll long lines. */}
      <pre tabIndex={0} {...props} />
      <CopyCodeButton />
    </div>
  );
}

function Table(props: ComponentProps<"table">) {
  return (
    <div className="overflow-x-auto">
      <table {...props} />
    </div>
  );
}

export const mdxComponents = { a: A, pre: Pre, table: Table };
