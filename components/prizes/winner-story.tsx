import Image from "next/image";
import type { PublicStory } from "@/lib/data/winner-stories";
import { cn } from "@/lib/utils";

/**
 * A winner's published photo and quote, on /winners and the competition page. SQL sends a
 * story only while the winner consents, so a page shows whatever it is given. Lazy: most of a winners list is
 * below the fold. Served from the site's own /media/winner-photos (never resized by Next, as the other images).
 */
export function WinnerStory({ story, winner, className }: { story: PublicStory; winner: string; className?: string }) {
  return (
    <figure className={cn("flex flex-col gap-3 sm:flex-row sm:items-start", className)}>
      {story.photo && story.photo_alt ? (
        <Image
          src={story.photo}
          alt={story.photo_alt}
          width={320}
          height={320}
          sizes="(min-width: 640px) 8rem, 100vw"
          loading="lazy"
          unoptimized
          className="aspect-square w-full max-w-60 rounded-lg bg-muted object-cover sm:w-32"
        />
      ) : null}
      <div className="flex flex-col gap-1">
        {story.quote ? (
          <blockquote className="text-base italic">
            <p>“{story.quote}”</p>
          </blockquote>
        ) : null}
        <figcaption className="text-sm text-muted-foreground">{winner}, our winner</figcaption>
      </div>
    </figure>
  );
}
