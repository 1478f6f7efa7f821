"use client";

import Image from "next/image";
import { useState } from "react";
import { cn } from "@/lib/utils";

/** The prize images: one large, the rest as thumbnails that swap it. */
export function Gallery({ images, title }: { images: string[]; title: string }) {
  const [shown, setShown] = useState(0);
  const current = images[Math.min(shown, images.length - 1)];
  return (
    <div className="flex flex-col gap-3">
      <div className="overflow-hidden rounded-2xl border border-border bg-muted">
        <Image
          src={current}
          alt={images.length > 1 ? `${title}, image ${shown + 1} of ${images.length}` : title}
          width={800}
          height={600}
          unoptimized
          preload
          fetchPriority="high"
          className="aspect-[4/3] w-full object-cover"
        />
      </div>
      {images.length > 1 ? (
        <div role="group" aria-label="Prize images" className="flex flex-wrap gap-2">
          {images.map((src, i) => (
            <button
              key={`${src}-${i}`}
              type="button"
              aria-label={`Show image ${i + 1} of ${images.length}`}
              aria-pressed={i === shown}
              onClick={() => setShown(i)}
              className={cn(
                "overflow-hidden rounded-lg border-2 bg-muted transition-colors",
                i === shown ? "border-primary" : "border-transparent hover:border-border",
              )}
            >
              <Image src={src} alt="" width={120} height={90} unoptimized className="aspect-[4/3] w-24 object-cover" />
            </button>
          ))}
        </div>
      ) : null}
    </div>
  );
}
