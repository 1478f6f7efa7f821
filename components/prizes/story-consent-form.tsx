"use client";

import { FormFooter } from "@/components/forms/form-footer";
import { CheckboxField } from "@/components/ui/field";
import { setMyStoryConsentAction } from "@/lib/actions/winner-stories";
import type { MyPrize } from "@/lib/data/competitions";
import { useFormAction } from "@/lib/hooks/use-form-action";

/**
 * The winner's consent to publishing their photo and a quote: asked of the photo itself,
 * whatever they chose for their name, and withdrawn here at any time (SQL hides it from the public at once).
 */
export function StoryConsentForm({ prize }: { prize: MyPrize }) {
  const { result, errors, formErrors, pending, form } = useFormAction(setMyStoryConsentAction);
  const id = `story-consent-${prize.draw_id}`;
  return (
    <form {...form} className="flex flex-col gap-3" aria-label={`Your photo and quote: ${prize.competition.title}`}>
      <input type="hidden" name="drawId" value={prize.draw_id} />
      <CheckboxField
        id={id}
        name="consent"
        defaultChecked={prize.story?.consent ?? false}
        label="You may publish my photo and quote"
        hint="With your agreement we show a photo of you and a few words of yours on the winners page and this competition's page, beside the name we publish for you (initials only, if you asked for that). Untick and save to take them down at once."
        errors={errors?.consent}
      />
      <FormFooter result={result} formErrors={formErrors} pending={pending} pendingLabel="Saving…" variant="outline">
        Save photo choice
      </FormFooter>
    </form>
  );
}
