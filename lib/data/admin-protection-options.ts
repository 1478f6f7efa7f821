// The values the player-protection screens offer and the SQL accepts (player_flags.kind,
// player_interventions.kind in *_player_protection.sql). Plain constants, safe for client components.

// Both are SQL enums; their words (code of practice 1.6, 1.7) are in lib/labels.ts.
import { ENUM_VALUES, type EnumValue } from "@/lib/labels";

export const FLAG_KINDS = ENUM_VALUES.flag_kind;
export type FlagKind = EnumValue<"flag_kind">;

export const INTERVENTION_KINDS = ENUM_VALUES.intervention_kind;
export type InterventionKind = EnumValue<"intervention_kind">;
