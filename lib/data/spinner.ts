import "server-only";
import { z } from "zod";
import { callPublicRpc } from "./public-rpc";
import { declared } from "./rpc";
import { callRpc } from "./server-rpc";
import { getStaticSiteSettings } from "./settings";

// LabSpinner (supabase/migrations/*_labspinner.sql). Every figure — odds, expected prize, spin
// credits, progress to the next — is worked out in SQL; the app only formats it.

const segmentSchema = z.object({
  /** 1..n clockwise from the top of the wheel. */
  position: z.number().int(),
  label: z.string(),
  colour: z.string(),
  /** The text colour SQL checked against `colour` for contrast. */
  label_colour: z.string(),
  prize_credits: z.coerce.number(),
  weight: z.number().int(),
  /** weight / total weight, to 6 decimals. */
  probability: z.coerce.number(),
});
export type SpinnerSegment = z.infer<typeof segmentSchema>;

/** One wheel version. */
const wheelSchema = z.object({
  wheel_id: z.coerce.number(),
  total_weight: z.coerce.number(),
  /** The prize a spin pays on average, in credits (4 decimals). */
  expected_prize: z.coerce.number(),
  segments: z.array(segmentSchema),
});
export type SpinnerWheel = z.infer<typeof wheelSchema>;

/** A wheel version's readers: the declared public.spinner_wheel and its segments (nothing in them is ever null). */
const segment = declared("position", "label", "colour", "label_colour", "prize_credits", "weight", "probability");
export const wheel = declared("wheel_id", "total_weight", "expected_prize", "segments").with({ segments: segment });
const liveWheel = declared("wheel_id", "total_weight", "expected_prize", "segments", "enabled").with({
  segments: segment,
});

/**
 * get_my_spin_history stays jsonb (its wheels are keyed by wheel id), so it is read with zod: a seed pair
 * (`server_seed`, hex, only once the pair has been rotated out), a spin and a wheel version, as the declared
 * public.spinner_seed, public.spinner_spin and public.spinner_wheel render them.
 */
const seedSchema = z.object({
  id: z.coerce.number(),
  server_seed_hash: z.string(),
  client_seed: z.string(),
  next_nonce: z.number().int(),
  created_at: z.string(),
  revealed_at: z.string().nullable(),
  server_seed: z.string().nullable(),
});
export type SpinnerSeed = z.infer<typeof seedSchema>;

const spinSchema = z.object({
  id: z.coerce.number(),
  seed_id: z.coerce.number(),
  client_seed: z.string(),
  nonce: z.number().int(),
  wheel_id: z.coerce.number(),
  /** Rejection-sampling rounds before the accepted one (0 almost always). */
  attempt: z.number().int(),
  value: z.coerce.number(),
  segment_position: z.number().int(),
  label: z.string(),
  prize_credits: z.coerce.number(),
  created_at: z.string(),
});
export type Spin = z.infer<typeof spinSchema>;

/** Readers of the declared public.spin_credits, public.spinner_spin and public.spinner_seed, as other results nest them. */
export const spinCredits = declared(
  "ticket_spend",
  "earned",
  "granted",
  "used",
  "earned_available",
  "postal_available",
  "available",
  "spend_per_spin",
  "toward_next",
  "to_next",
);
export const spin = declared(
  "id",
  "seed_id",
  "client_seed",
  "nonce",
  "wheel_id",
  "attempt",
  "value",
  "segment_position",
  "label",
  "prize_credits",
  "created_at",
);
const seed = declared("id", "server_seed_hash", "client_seed", "next_nonce", "created_at");

/** spin_wheel: the spin, the hash of the server seed it used, the balance after its prize and the credits left. */
const spinResult = declared(...spin.filled, "server_seed_hash", "balance", "credits").with({ credits: spinCredits });

/**
 * reveal_spinner_spin: the spin, its pair with the server seed now revealed, the wheel version it used, and the
 * active pair after (a new one when the spin's pair was still active).
 */
const spinReveal = declared("spin", "revealed", "wheel", "seed").with({ spin, revealed: seed, wheel: wheel, seed });

/** get_my_spinner: `block` says why the player may not spin (approval, a break, exclusion, a restriction, a closed account), or is null. */
const mySpinner = declared("enabled", "credits", "seed", "balance", "recent_spins").with({
  credits: spinCredits,
  block: declared("code", "message"),
  seed,
  recent_spins: spin,
});

const spinHistorySchema = z.object({
  seeds: z.array(seedSchema),
  spins: z.array(spinSchema),
  /** Each wheel version the spins used, by its id. */
  wheels: z.record(z.string(), wheelSchema),
});
export type SpinHistory = z.infer<typeof spinHistorySchema>;

/**
 * The live wheel and its odds, read as anon: /labspinner is one static page for everyone,
 * regenerated within seconds (its `revalidate`). The build's placeholder (no database then) is never shown.
 */
export const getSpinnerWheel = () =>
  callPublicRpc("get_spinner_wheel", {}, liveWheel, {
    enabled: false,
    wheel_id: 0,
    total_weight: 0,
    expected_prize: 0,
    segments: [],
  });

/** Where free postal requests go, one line each (the public settings, as anon for the static page). */
export const getSpinnerPostalAddress = async (): Promise<string[]> => (await getStaticSiteSettings()).postal_address;

/** The signed-in player's spin credits, block, active seed pair, balance and last spins. */
export const getMySpinner = () => callRpc("get_my_spinner", {}, mySpinner);
export type MySpinner = Awaited<ReturnType<typeof getMySpinner>>;
export type SpinCredits = MySpinner["credits"];

/** The player's seed pairs, spins and the wheel versions they used, for /labspinner/verify. */
export const getMySpinHistory = (): Promise<SpinHistory> => callRpc("get_my_spin_history", {}, spinHistorySchema);

/** Spends a spin credit: the segment is decided and the prize paid in SQL before anything animates. */
export const spinWheel = () => callRpc("spin_wheel", {}, spinResult);
export type SpinResult = Awaited<ReturnType<typeof spinWheel>>;

/** Sets the client seed of the player's active pair; answers the pair. */
export const setSpinnerClientSeed = (clientSeed: string): Promise<SpinnerSeed> =>
  callRpc("set_spinner_client_seed", { p_client_seed: clientSeed }, seed);

/** Reveals the active server seed and starts a new pair (with `clientSeed`, or a random one). */
export const rotateSpinnerSeed = (clientSeed: string | null) =>
  callRpc(
    "rotate_spinner_seed",
    { p_client_seed: clientSeed },
    declared("revealed", "seed").with({ revealed: seed, seed }),
  );
export type SeedRotation = Awaited<ReturnType<typeof rotateSpinnerSeed>>;

/**
 * Reveals the seed pair of the caller's own spin (rotating it out first when it is still active) with the
 * wheel version it used: everything the browser needs to recompute that one spin.
 */
export const revealSpinnerSpin = (spinId: number) => callRpc("reveal_spinner_spin", { p_spin_id: spinId }, spinReveal);
export type SpinReveal = Awaited<ReturnType<typeof revealSpinnerSpin>>;
