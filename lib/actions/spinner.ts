"use server";

import { z } from "zod";
import { DbError } from "@/lib/data/errors";
import {
  revealSpinnerSpin,
  rotateSpinnerSeed,
  setSpinnerClientSeed,
  spinWheel,
  type SeedRotation,
  type SpinnerSeed,
  type SpinReveal,
} from "@/lib/data/spinner";
import { defineAction } from "./define-action";
import { fail, ok, type ActionResult } from "./result";

// The same rule as SQL's private.check_client_seed, so a mistake is shown before a round trip.
const clientSeed = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9_-]{1,64}$/, "A client seed is 1 to 64 letters, digits, hyphens or underscores");

/**
 * Spends one spin credit (spin_wheel: one transaction that decides, records and pays). The player's
 * panel re-reads its data itself (/api/spinner) once the wheel stops: sooner, the new balance and
 * recent spins would give the result away.
 */
export const spinWheelAction = defineAction({ schema: z.object({}), role: "user" }, async () => ok(await spinWheel()));

/** The refusal of a client seed, on the field (invalid_input is the only refusal naming it). */
function clientSeedRefusal(e: unknown) {
  if (e instanceof DbError && e.code === "invalid_input") {
    return fail(e.message, { code: e.code, fieldErrors: { clientSeed: [e.message] } });
  }
  throw e;
}

export const setClientSeedAction = defineAction(
  { schema: z.object({ clientSeed }), role: "user" },
  async (input): Promise<ActionResult<SpinnerSeed>> => {
    try {
      const seed = await setSpinnerClientSeed(input.clientSeed);
      return ok(seed, "Client seed saved: your next spin uses it.");
    } catch (e) {
      return clientSeedRefusal(e);
    }
  },
);

/** Reveals the active server seed (so its spins can be verified) and starts a new pair. */
export const rotateSeedAction = defineAction(
  { schema: z.object({ clientSeed: clientSeed.optional() }), role: "user" },
  async (input): Promise<ActionResult<SeedRotation>> => {
    try {
      const rotation = await rotateSpinnerSeed(input.clientSeed ?? null);
      return ok(rotation, "Seed rotated: the old server seed is revealed.");
    } catch (e) {
      return clientSeedRefusal(e);
    }
  },
);

/** "Reveal and check this spin": the spin's seed pair revealed (rotated out if active), for the browser to recompute. */
export const revealSpinAction = defineAction(
  {
    schema: z.object({
      spinId: z.coerce
        .number({ error: "That spin could not be found" })
        .int({ error: "That spin could not be found" })
        .positive({ error: "That spin could not be found" }),
    }),
    role: "user",
  },
  async ({ spinId }): Promise<ActionResult<SpinReveal>> => ok(await revealSpinnerSpin(spinId)),
);
