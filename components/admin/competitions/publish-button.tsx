"use client";

import { useActionState } from "react";
import { FormStatus } from "@/components/forms/form-status";
import { SubmitButton } from "@/components/forms/submit-button";
import { publishCompetitionAction } from "@/lib/actions/admin-competitions";

/** Publishes a draft: the seed is made and its commitment shown on the page that follows. */
export function PublishButton({ competitionId }: { competitionId: string }) {
  const [result, publish] = useActionState(publishCompetitionAction, null);
  return (
    <form action={publish} aria-label="Publish" className="flex flex-col gap-2">
      <input type="hidden" name="id" value={competitionId} />
      <div>
        <SubmitButton pendingLabel="Publishing…">Publish</SubmitButton>
      </div>
      <FormStatus result={result} />
    </form>
  );
}
