"use client";

import { useRef, useState } from "react";
import { Check, Copy } from "lucide-react";

export function CopyCodeButton() {
  const ref = useRef<HTMLButtonElement>(null);
  const [copied, setCopied] = useState(false);
  return (
    <button
      ref={ref}
      type="button"
      aria-label="Copy code to clipboard"
      title="Copy code to clipboard"
      onClick={async () => {
        const code = ref.current?.closest("[data-code-block]")?.querySelector("pre")?.innerText ?? "";
        await navigator.clipboard.writeText(code.replace(/\n$/, ""));
        setCopied(true);
        setTimeout(() => setCopied(false), 2000);
      }}
      className="absolute top-2 right-2 inline-flex size-8 items-center justify-center rounded-md border border-code-foreground/25 bg-code text-code-foreground hover:bg-code-foreground/15"
    >
      {copied ? <Check aria-hidden className="size-4" /> : <Copy aria-hidden className="size-4" />}
      <span role="status" className="sr-only">
        {copied ? "Copied" : ""}
      </span>
    </button>
  );
}
