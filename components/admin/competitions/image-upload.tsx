"use client";

import Image from "next/image";
import { useId, useRef, useState, type DragEvent } from "react";
import { Button } from "@/components/ui/button";
import { discardCompetitionImageAction, uploadCompetitionImageAction } from "@/lib/actions/admin-competition-images";
import { isImageType, MAX_SOURCE_BYTES, objectNameOf } from "@/lib/competitions/images";
import { resizeImage } from "@/lib/competitions/resize-image";
import { cn } from "@/lib/utils";

type Item = {
  path: string;
  /** Uploaded on this visit and not saved yet: removing it deletes it at once. */ fresh: boolean;
};

const ACCEPT = "image/jpeg,image/png,image/webp";

/**
 * The competition's images: a drop zone with a file input (drag and drop, or choose files from the
 * keyboard), each picture checked (type, size), shrunk in the browser and uploaded to the Storage bucket
 * through a server action, then shown with a Remove button. The form posts the paths as one `images`
 * field, one per line, which the competition schema reads; disabled (so not posted) when locked.
 */
export function ImageUpload({
  name,
  initial,
  max,
  disabled,
  errors,
  hint,
  onBusyChange,
}: {
  name: string;
  initial: string[];
  max: number;
  disabled?: boolean;
  errors?: string[];
  hint?: React.ReactNode;
  onBusyChange?: (busy: boolean) => void;
}) {
  const id = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [items, setItems] = useState<Item[]>(initial.map((path) => ({ path, fresh: false })));
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState("");
  const [problems, setProblems] = useState<string[]>([]);
  const [dragging, setDragging] = useState(false);

  const shown = [...problems, ...(errors ?? [])];
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;

  function setWorking(value: boolean) {
    setBusy(value);
    onBusyChange?.(value);
  }

  async function add(files: File[]) {
    if (disabled || busy || files.length === 0) return;
    const found: string[] = [];
    const room = max - items.length;
    if (files.length > room) found.push(`At most ${max} images: ${room === 0 ? "remove one first" : `${room} more`}.`);
    setWorking(true);
    const added: Item[] = [];
    for (const [i, file] of files.slice(0, Math.max(0, room)).entries()) {
      const label = `“${file.name}”`;
      if (!isImageType(file.type)) {
        found.push(`${label} is not a JPEG, PNG or WebP image.`);
        continue;
      }
      if (file.size > MAX_SOURCE_BYTES) {
        found.push(`${label} is over ${MAX_SOURCE_BYTES / 1024 / 1024} MB: choose a smaller picture.`);
        continue;
      }
      setStatus(`Preparing image ${i + 1} of ${files.length}…`);
      const resized = await resizeImage(file);
      if (!resized) {
        found.push(`${label} could not be read as a picture.`);
        continue;
      }
      setStatus(`Uploading image ${i + 1} of ${files.length}…`);
      const form = new FormData();
      form.set(
        "image",
        new File([resized], `image.${resized.type === "image/webp" ? "webp" : "jpg"}`, { type: resized.type }),
      );
      const result = await uploadCompetitionImageAction(null, form);
      if (result.ok) added.push({ path: result.data.path, fresh: true });
      else found.push(`${label}: ${result.fieldErrors?.image?.[0] ?? result.error}`);
    }
    setItems((current) => [...current, ...added]);
    setProblems(found);
    setStatus(added.length ? `${added.length === 1 ? "1 image" : `${added.length} images`} added.` : "");
    setWorking(false);
    if (inputRef.current) inputRef.current.value = "";
  }

  async function remove(item: Item, index: number) {
    setItems((current) => current.filter((other) => other !== item));
    setStatus(`Image ${index + 1} removed.`);
    // Saved images are deleted when the form is saved without them (updateCompetitionAction).
    if (item.fresh && objectNameOf(item.path)) await discardCompetitionImageAction(null, formWith("path", item.path));
  }

  function onDrop(event: DragEvent) {
    event.preventDefault();
    setDragging(false);
    void add(Array.from(event.dataTransfer.files));
  }

  return (
    <div className="flex flex-col gap-2">
      <input type="hidden" name={name} value={items.map((item) => item.path).join("\n")} disabled={disabled} />
      <span className="text-sm font-medium" id={`${id}-group`}>
        Images
      </span>
      {items.length > 0 ? (
        <ul aria-labelledby={`${id}-group`} className="grid grid-cols-2 gap-3 sm:grid-cols-4">
          {items.map((item, i) => (
            <li key={item.path} className="flex flex-col gap-2 rounded-lg border border-border bg-card p-2">
              <Image
                src={item.path}
                alt={`Image ${i + 1}${i === 0 ? " (the card's)" : ""}`}
                width={320}
                height={240}
                unoptimized
                className="aspect-[4/3] w-full rounded-md bg-muted object-cover"
              />
              <Button
                type="button"
                variant="outline"
                size="sm"
                disabled={disabled || busy}
                onClick={() => void remove(item, i)}
              >
                Remove image {i + 1}
              </Button>
            </li>
          ))}
        </ul>
      ) : null}
      <div
        onDragOver={(event) => {
          event.preventDefault();
          if (!disabled) setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        className={cn(
          "flex flex-col items-center gap-2 rounded-lg border-2 border-dashed border-input p-6 text-center focus-within:ring-2 focus-within:ring-ring",
          dragging && "border-primary bg-accent",
          disabled && "opacity-60",
        )}
      >
        <p className="text-sm text-muted-foreground">Drop pictures here, or</p>
        <label
          htmlFor={`${id}-file`}
          className={cn(
            "inline-flex h-9 cursor-pointer items-center rounded-md border border-border bg-background px-3 text-sm font-medium hover:bg-accent",
            (disabled || busy) && "pointer-events-none opacity-50",
          )}
        >
          Choose images
        </label>
        <input
          ref={inputRef}
          id={`${id}-file`}
          type="file"
          // The form hook puts the images' messages beside the control whose key it finds in the form.
          data-error-key={name}
          accept={ACCEPT}
          multiple
          disabled={disabled || busy}
          aria-describedby={
            [hint ? hintId : null, shown.length ? errorId : null].filter(Boolean).join(" ") || undefined
          }
          aria-invalid={shown.length ? true : undefined}
          onChange={(event) => void add(Array.from(event.target.files ?? []))}
          className="sr-only"
        />
      </div>
      {hint ? (
        <p id={hintId} className="text-xs text-muted-foreground">
          {hint}
        </p>
      ) : null}
      <p role="status" className="text-sm text-muted-foreground">
        {status}
      </p>
      {shown.length ? (
        <p id={errorId} className="text-sm text-destructive">
          {shown.join(" ")}
        </p>
      ) : null}
    </div>
  );
}

function formWith(key: string, value: string): FormData {
  const form = new FormData();
  form.set(key, value);
  return form;
}
