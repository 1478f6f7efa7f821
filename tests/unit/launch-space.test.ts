import { describe, expect, it } from "vitest";
import { anyCompetitionOpened, launchSpace, nextDraw } from "@/lib/competitions/launch-space";
import type { Competition } from "@/lib/data/competitions";
import { at, liveCompetition, NOW as now } from "./support/competition";

// The home page shows the launch countdown only before the first competition opens.

function competition(slug: string, opensIn: number, drawIn: number, fields: Partial<Competition> = {}): Competition {
  return liveCompetition({
    slug,
    title: slug,
    prize_description: slug,
    opens_at: at(opensIn),
    closes_at: at(drawIn - 48),
    postal_deadline: at(drawIn - 1),
    draw_at: at(drawIn),
    ...fields,
  });
}

const launch = at(24);

describe("launchSpace", () => {
  it("counts down while the launch is ahead and nothing has opened, even with competitions opening soon", () => {
    expect(launchSpace([], launch, now)).toEqual({ kind: "countdown", launchAt: launch });
    const soon = competition("soon", 30, 200);
    expect(anyCompetitionOpened([soon], now)).toBe(false);
    expect(launchSpace([soon], launch, now)).toEqual({ kind: "countdown", launchAt: launch });
  });

  it("shows the next draw once any competition is live, whatever the launch setting says", () => {
    const selling = competition("selling", -5, 100);
    expect(anyCompetitionOpened([selling], now)).toBe(true);
    expect(launchSpace([selling], launch, now)).toEqual({ kind: "next-draw", competition: selling });
  });

  it("counts a competition that opened and has since ended as opened", () => {
    const drawn = competition("drawn", -300, -10, { status: "drawn" });
    const soon = competition("soon", 30, 200);
    expect(launchSpace([drawn, soon], launch, now)).toEqual({ kind: "next-draw", competition: soon });
  });

  it("shows nothing when nothing has opened and there is no launch moment or nothing left to draw", () => {
    expect(launchSpace([], null, now)).toEqual({ kind: "none" });
    expect(launchSpace([], at(-1), now)).toEqual({ kind: "none" });
    expect(launchSpace([competition("drawn", -300, -10, { status: "drawn" })], launch, now)).toEqual({ kind: "none" });
  });
});

describe("nextDraw", () => {
  it("is the soonest draw among competitions not drawn, cancelled or closed", () => {
    const later = competition("later", -5, 100);
    const sooner = competition("sooner", -50, 60, { tickets_left: 0, status: "sold_out" });
    const cancelled = competition("cancelled", -50, 10, { status: "cancelled" });
    const drawn = competition("drawn", -300, -10, { status: "drawn" });
    expect(nextDraw([later, cancelled, drawn, sooner], now)?.slug).toBe("sooner");
    expect(nextDraw([cancelled, drawn], now)).toBeNull();
  });

  it("still names a competition whose draw time has come but which the cron has not drawn yet", () => {
    const due = competition("due", -300, -0.01, { tickets_sold: 5 });
    expect(nextDraw([due, competition("later", -5, 100)], now)?.slug).toBe("due");
  });
});
