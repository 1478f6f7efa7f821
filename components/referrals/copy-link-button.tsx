"use client";

import { useState } from "react";
import { Check, Copy } from "lucide-react";
import { buttonClasses } from "@/components/ui/button";

/** Copies the invite link; the status line says so for screen readers too. */
export function CopyLinkButton({ link }: { link: string }) {
  const [copied, setCopied] = useState<boolean | null>(null);
  return (
    <div className="flex items-center gap-3">
      <button
        type="button"
        className={buttonClasses("outline", "md", "self-start")}
        onClick={async () => {
          try {
            await navigator.clipboard.writeText(link);
            setCopied(true);
          } catch {
            setCopied(false);
          }
        }}
      >
        {copied ? <Check aria-hidden /> : <Copy aria-hidden />}
        Copy link
      </button>
      <span role="status" className="text-sm">
        {copied === true ? "Link copied" : copied === false ? "Could not copy: select the link and copy it" : ""}
      </span>
    </div>
  );
}
