"use client";

import { useState } from "react";
import { Check, Copy, Download } from "lucide-react";
import { Link } from "@/components/ui/link";
import { buttonClasses } from "@/components/ui/button";

/**
 * Recovery codes, shown this once (only their hashes are kept): a list, a copy button and a download. `next` is
 * where the admin goes on once they have kept them.
 */
export function RecoveryCodesPanel({ codes, next }: { codes: string[]; next?: string }) {
  const [copied, setCopied] = useState<boolean | null>(null);
  const text = `LabCash recovery codes\nEach works once, with your password, if you lose your authenticator app.\n\n${codes.join("\n")}\n`;
  return (
    <section aria-labelledby="recovery-codes" className="flex flex-col gap-4 rounded-md border p-4">
      <h2 id="recovery-codes" className="text-lg font-semibold">
        Your recovery codes
      </h2>
      <p className="text-sm">
        If you lose your phone, sign in with your password and one of these codes to set up a new authenticator. Each
        code works once. Keep them somewhere safe, away from your phone: this is the only time we show them.
      </p>
      <ul aria-label="Recovery codes" className="grid grid-cols-2 gap-2 font-mono text-sm">
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
      <div className="flex flex-wrap items-center gap-3">
        <button
          type="button"
          className={buttonClasses("outline", "md")}
          onClick={async () => {
            try {
              await navigator.clipboard.writeText(text);
              setCopied(true);
            } catch {
              setCopied(false);
            }
          }}
        >
          {copied ? <Check aria-hidden /> : <Copy aria-hidden />}
          Copy codes
        </button>
        <a
          href={`data:text/plain;charset=utf-8,${encodeURIComponent(text)}`}
          download="labcash-recovery-codes.txt"
          className={buttonClasses("outline", "md")}
        >
          <Download aria-hidden />
          Download codes
        </a>
        <span role="status" className="text-sm">
          {copied === true ? "Codes copied" : copied === false ? "Could not copy: select the codes and copy them" : ""}
        </span>
      </div>
      {next && (
        <Link href={next} className={buttonClasses("primary", "md", "self-start")}>
          I have kept my codes: continue
        </Link>
      )}
    </section>
  );
}
