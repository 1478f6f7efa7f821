import { z } from "zod";
import { CHARITY_PROOF_BUCKET, proofNameOf, proofPathOf, proofTypeOf } from "@/lib/charities/proofs";
import { defineRoute, type RouteInput } from "@/lib/http/define-route";
import { imageNotFound, publicObjectResponse } from "@/lib/http/stored-image-response";

// The proof of a donation to a competition's charity (lib/http/stored-image-response.ts), public like the donation
// itself. Served only as the type its name says, which its bytes were checked to be at upload; shown in the browser
// (a PDF opens in its viewer) rather than downloaded. Names are random and never reused, so browsers keep the answer
// for a year; a CDN for a day, as competition images.
export const dynamic = "force-dynamic";

async function get({ params }: RouteInput<{ name: string }, undefined>) {
  const objectName = proofNameOf(proofPathOf(params.name));
  const type = objectName ? proofTypeOf(objectName) : null;
  if (!objectName || !type) return imageNotFound();
  return publicObjectResponse(
    CHARITY_PROOF_BUCKET,
    objectName,
    { browser: "public, max-age=31536000, immutable", cdn: "public, max-age=86400" },
    (stored) => stored === type,
    // Its Content-Security-Policy is a sandbox (lib/http/security-headers.ts PROOF_CSP_SOURCE).
    { "Content-Disposition": `inline; filename="${objectName}"` },
  );
}

export const GET = defineRoute({ kind: "html", params: z.object({ name: z.string() }), notFound: "Not found" }, get);
