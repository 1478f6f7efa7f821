// The one way a contract test file gets its backend: a fresh embedded backend of its own (a new database, the seed
// loaded), started before the file's tests and stopped after them, and the seeded player and admin signed in on
// request. A file calls contractServer() once at its top level and reads `contract.server` inside its tests.
import { afterAll, beforeAll } from "vitest";
import { signIn, signInAtAal2, startTestServer, type Client, type TestServer } from "../helpers";

type TestServerOptions = Parameters<typeof startTestServer>[0];

export const SEEDED_PLAYER = "player@labcash.test";
export const SEEDED_ADMIN = "admin@labcash.test";

export interface ContractServer {
  /** The file's backend (set once its beforeAll has run). */
  readonly server: TestServer;
  /** The seeded player, signed in with a password (aal1). */
  player(): Promise<Client>;
  /** The seeded admin, signed in with the second step given (aal2), as every admin call needs. */
  admin(): Promise<Client>;
}

export function contractServer(options?: TestServerOptions): ContractServer {
  let server: TestServer | undefined;
  beforeAll(async () => {
    server = await startTestServer(options);
  });
  afterAll(() => server?.stop());
  const started = () => {
    if (!server) throw new Error("The contract server is read inside a test, once beforeAll has started it");
    return server;
  };
  return {
    get server() {
      return started();
    },
    player: async () => (await signIn(started(), SEEDED_PLAYER)).client,
    admin: async () => (await signInAtAal2(started(), SEEDED_ADMIN)).client,
  };
}
