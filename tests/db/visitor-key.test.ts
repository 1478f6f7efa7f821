// One visitor, one key, in SQL as in TypeScript: private.visitor_key (what the MFA verification hook keys on,
// given hosted GoTrue's raw client address) against visitorKey (the site's and the embedded backend's), on a table
// of addresses, spellings and non-addresses, on PGlite and on PostgreSQL 15.
import { describe, expect, it } from "vitest";
import { visitorKey } from "@labcash/embedded-supabase/visitor-key";
import { pg15ClusterForFile } from "./pg15";
import { dbPerFile } from "./support";

const db = dbPerFile();
const cluster = pg15ClusterForFile(2);

const INPUTS = [
  "203.0.113.9",
  " 203.0.113.9\t",
  "0.0.0.0",
  "255.255.255.255",
  "2001:db8::1",
  "2001:0db8:0::0001",
  "2001:DB8:0:0:1:2:3:4",
  "2001:db8:0:1:ffff:ffff:ffff:ffff",
  "2001:db8:0:0:1::",
  "2001:db8:aaaa:bbbb::1",
  "1:0:0:1::",
  "1:2:3:4:5:6:7::",
  "::",
  "::1",
  "fe80::1%eth0",
  "::ffff:1.2.3.4",
  "::FFFF:102:304",
  "0:0:0:0:0:ffff:c000:0201",
  "::1.2.3.4",
  "64:ff9b::1.2.3.4",
  "unknown",
  "",
  "   ",
  "01.2.3.4",
  "256.1.1.1",
  "1.2.3",
  "1.2.3.4/24",
  "2001:db8::/64",
  "1::2::3",
  "12345::",
  "2001:db8::g",
  "::ffff:1.2.3.04",
  "1.2.3.4, 5.6.7.8",
];

const SQL = "select input, private.visitor_key(input) as key from unnest($1::text[]) input";

describe("private.visitor_key", () => {
  const expected = INPUTS.map((input) => ({ input, key: visitorKey(input) }));

  it("is visitorKey, input for input, on PGlite", async () => {
    expect(await db().sql(SQL, [INPUTS])).toEqual(expected);
    expect(await db().sql("select private.visitor_key(null) as key")).toEqual([{ key: null }]);
  });

  it("is visitorKey, input for input, on PostgreSQL 15", async () => {
    expect((await cluster.pool.query(SQL, [INPUTS])).rows).toEqual(expected);
  });

  it("keys the spellings of one /64 alike, a mapped IPv4 as its IPv4, and nothing for a non-address", () => {
    // The table above holds SQL to TypeScript; these hold TypeScript to the rule.
    expect(expected.slice(4, 6).map((row) => row.key)).toEqual(["2001:db8::", "2001:db8::"]);
    expect(visitorKey("::ffff:1.2.3.4")).toBe("1.2.3.4");
    expect(visitorKey("unknown")).toBeNull();
    expect(visitorKey("")).toBeNull();
  });
});

describe("private.visitor_network", () => {
  it("is an IPv4 address itself and an IPv6 key's /48, on PGlite and PostgreSQL 15", async () => {
    const sql =
      "select private.visitor_network(v) as network from unnest($1::text[]) with ordinality t(v, n) order by n";
    const values = ["203.0.113.9", "2001:db8:aaaa:bbbb::1", "2001:db8:aaaa:cccc::", "::ffff:1.2.3.4", "unknown"];
    const networks = ["203.0.113.9", "2001:db8:aaaa::", "2001:db8:aaaa::", "1.2.3.4", null].map((network) => ({
      network,
    }));
    expect(await db().sql(sql, [values])).toEqual(networks);
    expect((await cluster.pool.query(sql, [values])).rows).toEqual(networks);
  });
});
