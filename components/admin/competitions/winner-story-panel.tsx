"use client";

import Image from "next/image";
import { useEffect, useRef, useState, type ChangeEvent } from "react";
import { FormFooter } from "@/components/forms/form-footer";
import { FormStatus } from "@/components/forms/form-status";
import { Alert } from "@/components/ui/alert";
import { DestructiveDialog, DestructiveDialogFooter } from "@/components/ui/destructive-dialog";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Select } from "@/components/ui/select";
import { Textarea } from "@/components/ui/textarea";
import type { ActionResult } from "@/lib/actions/result";
import { recordStoryConsentAction, removeWinnerStoryAction, saveWinnerStoryAction } from "@/lib/actions/winner-stories";
import { isImageType, MAX_SOURCE_BYTES } from "@/lib/competitions/images";
import { resizeImage } from "@/lib/competitions/resize-image";
import type { PrizeFulfilment } from "@/lib/data/admin-competitions";
import { formatDateTime } from "@/lib/format";
import { useFormAction } from "@/lib/hooks/use-form-action";

type Story = NonNullable<PrizeFulfilment["story"]>;

/** Where the consent stands, in a sentence: who gave or withdrew it, how, and when. */
function consentLine(story: Story | null): string {
  if (!story) return "No consent: nothing about this winner beyond their published name is shown.";
  const who =
    story.consent_source === "winner"
      ? "by the winner on their prize page"
      : `by ${story.consent_changed_by ?? "an admin"} (${story.consent_note})`;
  return `${story.consent ? "Consent given" : "Consent withdrawn"} ${who}, ${formatDateTime(story.consent_changed_at)}.`;
}

/**
 * A winner's photo and quote on the console's winners page: where the consent stands, a
 * record of consent given another way (with a note), and, while consent stands, the photo (resized in the
 * browser like competition images), its description and the quote; Remove also after a withdrawal.
 */
export function WinnerStoryPanel({
  prize,
  name,
}: {
  prize: PrizeFulfilment;
  /** What the prize is called: the competition's title, and which prize it is when it had several. */
  name: string;
}) {
  const story = prize.story;
  const published = Boolean(story?.photo_path || story?.quote);
  return (
    // Not a <section>: one region per prize with the same name would make landmarks nobody can tell apart.
    <div className="flex flex-col gap-4 border-t border-border pt-4">
      <h3 className="font-semibold">Winner&rsquo;s photo and quote</h3>
      <p className="text-sm" data-testid="story-consent">
        {consentLine(story)}
      </p>
      {story && !story.consent && published ? (
        <Alert variant="warning">Hidden from the public since the withdrawal. Remove the photo and quote.</Alert>
      ) : null}
      {prize.winner_initials_only ? (
        <p className="text-sm text-muted-foreground">
          This winner asked to appear by initials only: publish a photo only with their consent to the photo itself.
        </p>
      ) : null}
      {story?.consent ? <StoryForm prize={prize} name={name} story={story} /> : null}
      {published ? <RemoveStoryForm prize={prize} name={name} /> : null}
      <RecordConsentForm prize={prize} name={name} />
    </div>
  );
}

function RecordConsentForm({ prize, name }: { prize: PrizeFulfilment; name: string }) {
  const { result, errors, formErrors, pending, form } = useFormAction(recordStoryConsentAction, {
    clearOnSuccess: true,
  });
  const key = prize.draw_id;
  return (
    <details className="rounded-lg border border-border p-3">
      <summary className="cursor-pointer text-sm font-medium">Record consent given another way</summary>
      <form {...form} className="mt-3 flex flex-col gap-4" aria-label={`Record photo consent: ${name}`}>
        <input type="hidden" name="drawId" value={prize.draw_id} />
        <div className="grid gap-4 sm:grid-cols-2">
          <Field id={`field-consent-${key}`} label="The winner" errors={errors?.consent}>
            {(control) => (
              <Select {...control} name="consent" defaultValue="given">
                <option value="given">Consents to their photo and quote</option>
                <option value="withdrawn">Withdraws consent</option>
              </Select>
            )}
          </Field>
          <Field
            id={`field-consent-note-${key}`}
            label="How they told us"
            hint="For example: “By e-mail on 3 March, reply kept in the prize file”."
            errors={errors?.note}
          >
            {(control) => <Input {...control} name="note" autoComplete="off" />}
          </Field>
        </div>
        <FormFooter
          result={result}
          formErrors={formErrors}
          pending={pending}
          pendingLabel="Recording…"
          variant="outline"
        >
          Record
        </FormFooter>
      </form>
    </details>
  );
}

const ACCEPT = "image/jpeg,image/png,image/webp";

function StoryForm({ prize, name, story }: { prize: PrizeFulfilment; name: string; story: Story }) {
  const key = prize.draw_id;
  // The resized picture waits here until the form is sent, then goes with it as `photo`.
  const photoRef = useRef<Blob | null>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const [photoStatus, setPhotoStatus] = useState("");
  const [photoProblem, setPhotoProblem] = useState<string | null>(null);
  const { result, errors, formErrors, pending, form } = useFormAction(
    async (prev: ActionResult<undefined> | null, data: FormData) => {
      const photo = photoRef.current;
      if (photo)
        data.set(
          "photo",
          new File([photo], `photo.${photo.type === "image/webp" ? "webp" : "jpg"}`, { type: photo.type }),
        );
      const saved = await saveWinnerStoryAction(prev, data);
      if (saved.ok) {
        // Published: the page now shows the stored photo.
        photoRef.current = null;
        setPreview(null);
        setPhotoStatus("");
      }
      return saved;
    },
  );

  useEffect(() => () => void (preview && URL.revokeObjectURL(preview)), [preview]);

  async function choose(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    setPhotoProblem(null);
    if (!file) return;
    if (!isImageType(file.type)) return setPhotoProblem(`“${file.name}” is not a JPEG, PNG or WebP image.`);
    if (file.size > MAX_SOURCE_BYTES) {
      return setPhotoProblem(`“${file.name}” is over ${MAX_SOURCE_BYTES / 1024 / 1024} MB: choose a smaller picture.`);
    }
    setPhotoStatus("Preparing the photo…");
    const resized = await resizeImage(file);
    if (!resized) {
      setPhotoStatus("");
      return setPhotoProblem(`“${file.name}” could not be read as a picture.`);
    }
    photoRef.current = resized;
    setPreview(URL.createObjectURL(resized));
    setPhotoStatus("Photo ready: publish to show it.");
  }

  const shown = preview ?? story.photo_path;
  const photoErrors = [...(photoProblem ? [photoProblem] : []), ...(errors?.photo ?? [])];
  return (
    <form {...form} className="flex flex-col gap-4" aria-label={`Photo and quote: ${name}`}>
      <input type="hidden" name="drawId" value={prize.draw_id} />
      <input type="hidden" name="currentPhoto" value={story.photo_path ?? ""} />
      <div className="flex flex-col gap-4 sm:flex-row sm:items-start">
        {shown ? (
          <Image
            src={shown}
            alt={preview ? "The new photo, not published yet" : (story.photo_alt ?? "")}
            width={160}
            height={160}
            unoptimized
            className="aspect-square w-40 rounded-lg bg-muted object-cover"
          />
        ) : null}
        <Field
          id={`field-photo-${key}`}
          label={story.photo_path ? "Replace the photo" : "Photo"}
          hint="JPEG, PNG or WebP. It is shrunk to 1600 px and re-encoded here, which also drops the camera's location."
          errors={photoErrors.length ? photoErrors : undefined}
          className="flex-1"
        >
          {(control) => (
            <Input
              {...control}
              type="file"
              accept={ACCEPT}
              data-error-key="photo"
              disabled={pending}
              onChange={(event) => void choose(event)}
            />
          )}
        </Field>
      </div>
      <p role="status" className="text-sm text-muted-foreground">
        {photoStatus}
      </p>
      <Field
        id={`field-photo-alt-${key}`}
        label="Photo description"
        hint="What the photo shows, for people who cannot see it (required with a photo, up to 200 characters)."
        errors={errors?.photoAlt}
      >
        {(control) => (
          <Input {...control} name="photoAlt" maxLength={200} defaultValue={story.photo_alt ?? ""} autoComplete="off" />
        )}
      </Field>
      <Field
        id={`field-quote-${key}`}
        label="Quote"
        hint="The winner's own words, up to 280 characters."
        errors={errors?.quote}
      >
        {(control) => <Textarea {...control} name="quote" rows={2} maxLength={280} defaultValue={story.quote ?? ""} />}
      </Field>
      <FormFooter result={result} formErrors={formErrors} pending={pending} pendingLabel="Publishing…">
        Publish
      </FormFooter>
    </form>
  );
}

function RemoveStoryForm({ prize, name }: { prize: PrizeFulfilment; name: string }) {
  const { result, formErrors, pending, form } = useFormAction(removeWinnerStoryAction);
  return (
    <div>
      <DestructiveDialog
        trigger="Remove photo and quote"
        title={`Remove the photo and quote of ${name}?`}
        description="The photo is deleted from storage and the quote cleared: the winners' pages stop showing them. This cannot be undone."
      >
        <form {...form} className="flex flex-col gap-4" aria-label={`Remove photo and quote: ${name}`}>
          <input type="hidden" name="drawId" value={prize.draw_id} />
          <FormStatus result={result} formErrors={formErrors} />
          <DestructiveDialogFooter
            keepLabel="Keep them"
            confirmLabel="Remove photo and quote"
            pendingLabel="Removing…"
            pending={pending}
          />
        </form>
      </DestructiveDialog>
    </div>
  );
}
