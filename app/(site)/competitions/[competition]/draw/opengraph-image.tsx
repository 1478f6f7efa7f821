import { ImageResponse } from "next/og";
import { notFound } from "next/navigation";
import { ogCanvas, ogSize } from "@/config/og";
import { siteConfig } from "@/config/site";
import { formatMoment, requestTime } from "@/lib/competitions/status";
import { getLiveDraw } from "@/lib/data/live-draw";

export const alt = "A LabCash live draw: the winning ticket and the winner, or when the draw is";
export const size = ogSize;
export const contentType = "image/png";
// Cached like the page it illustrates, so a shared link shows the result within seconds of the draw.
export const revalidate = 2;

/** The live draw page's social card: the result once drawn (the shareable record), else when the draw is. */
export default async function LiveDrawImage({ params }: { params: Promise<{ competition: string }> }) {
  const live = await getLiveDraw(decodeURIComponent((await params).competition), requestTime());
  if (!live) notFound();
  const { competition: c, state } = live;
  const draw = state.draw;
  return new ImageResponse(
    <div style={ogCanvas("space-between")}>
      <div style={{ display: "flex", flexDirection: "column" }}>
        <div
          style={{ fontSize: 30, fontWeight: 700, opacity: 0.85 }}
        >{`${siteConfig.name} ${state.status === "waiting" ? "live draw" : "draw result"}`}</div>
        <div style={{ marginTop: 16, fontSize: 60, fontWeight: 800, lineHeight: 1.1 }}>{c.title}</div>
      </div>
      {draw ? (
        <div style={{ display: "flex", flexDirection: "column" }}>
          <div style={{ fontSize: 88, fontWeight: 800 }}>{`Ticket #${draw.winning_number} won`}</div>
          <div style={{ marginTop: 8, fontSize: 48, fontWeight: 700 }}>{draw.winner}</div>
          <div style={{ marginTop: 20, fontSize: 30, opacity: 0.85 }}>
            {`Drawn from ${draw.ticket_count.toLocaleString("en-GB")} tickets · checkable in your browser`}
          </div>
        </div>
      ) : (
        <div style={{ display: "flex", flexDirection: "column" }}>
          <div style={{ fontSize: 64, fontWeight: 800 }}>
            {state.status === "waiting" ? `Drawn ${formatMoment(c.draw_at)}` : "No draw"}
          </div>
          <div style={{ marginTop: 20, fontSize: 30, opacity: 0.85 }}>
            Seed committed before any sale · watch it live and check it yourself
          </div>
        </div>
      )}
    </div>,
    size,
  );
}
