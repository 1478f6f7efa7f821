// 200 simultaneous deduct_credits(user, 1) calls against a balance of 100, each its own
// gateway transaction as that user. PGlite has one connection, so the transactions queue;
// the same race on truly parallel connections is in pg15.test.ts.
import { describe, expect, it } from "vitest";
import { EXPECTED_RACE_OUTCOME, RACE, asUser, raceOutcome, dbPerFile } from "./support";

const db = dbPerFile();

describe("deduction race on PGlite", () => {
  it(`${RACE.calls} concurrent deductions of 1 from ${RACE.balance}: exactly ${RACE.balance} succeed`, async () => {
    const id = await db().createUser({ approved: true, credits: RACE.balance });
    const results = await Promise.all(
      Array.from({ length: RACE.calls }, () =>
        db().call<boolean>(asUser(id), "deduct_credits", { user_id: id, amount: 1 }),
      ),
    );
    expect(await raceOutcome(db().pg, id, results)).toEqual(EXPECTED_RACE_OUTCOME);
  });
});
