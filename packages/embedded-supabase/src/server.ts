// The embedded backend: one HTTP server speaking the part of the Supabase API
// the app uses (GoTrue auth under /auth/v1, PostgREST RPC under /rest/v1/rpc,
// Storage objects under /storage/v1/object),
// on one PGlite database. See the package's README.md.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { PGlite } from "@electric-sql/pglite";
import { AuthError, authErrorReply, authErrors, wantsCurrentApi, API_VERSION } from "./auth-errors";
import { AuthService, PASSWORD_HASH_COSTS, type PasswordHashCost } from "./auth";
import { DEFAULT_PASSWORD_POLICY, type PasswordPolicy } from "./auth-errors";
import type { CaptchaSettings } from "./captcha";
import { GOTRUE_EMAIL_OTP, type EmailOtpSettings } from "./auth-store";
import { ApiKeyError, checkApiKey, resolveCaller } from "./callers";
import { openDatabase, type SchemaOptions } from "./db";
import {
  BodyTooLargeError,
  header,
  MalformedBodyError,
  parseBody,
  preflight,
  readBody,
  send,
  UnsupportedMediaTypeError,
  type EmbeddedRoute,
  type Reply,
} from "./http";
import { TokenError, TokenSigner } from "./jwt";
import { EMBEDDED_HOST } from "./keys";
import { outboxRoute, readOutbox } from "./mail";
import { corsOriginAllowed, hostAllowed, isLoopback, type RedirectRules } from "./origins";
import { GOTRUE_RATE_LIMITS, type RateLimits } from "./rate-limit";
import { callRpc, PgrstError } from "./rest";
import { StorageHttpError, storageErrors, StorageService } from "./storage";

export type { EmbeddedRoute, Reply } from "./http";

export interface EmbeddedServerOptions {
  /** PGlite data directory (also holds jwk.json, and Storage's files under storage/). Omit for an in-memory database. */
  dataDir?: string;
  /** An already-migrated database to serve instead of opening one; the caller keeps ownership (close() leaves it open). */
  db?: PGlite;
  /** The app's migrations and seed, applied when the server opens its own database. Default: the shim alone. */
  schema?: SchemaOptions;
  /** 0 picks a free port. Default 54321. */
  port?: number;
  /** Default 127.0.0.1. Loopback only: the keys are published, so any other address is refused. */
  host?: string;
  /** GoTrue's SITE_URL: the origin that may call from a browser and where links may lead. Default http://localhost:3000. */
  siteUrl?: string;
  /** The product auth mail names ("Confirm your <appName> account"). Default "Supabase". */
  appName?: string;
  /** GoTrue's uri_allow_list: further redirect_to URLs (a `*` matches anything). Default none. */
  redirectAllowList?: string[];
  /** GoTrue's rate limits; each defaults to GoTrue's own (GOTRUE_RATE_LIMITS). */
  rateLimits?: Partial<RateLimits>;
  /** Require e-mail confirmation before the first sign-in. Default false. */
  mailConfirmation?: boolean;
  /**
   * GoTrue's MFA verification attempt hook (`[auth.hook.mfa_verification_attempt]` uri):
   * `pg-functions://postgres/<schema>/<function>`, called after every code checked. Default none.
   */
  mfaVerificationAttemptHook?: string;
  /** E-mailed codes' digits and life in seconds (GoTrue's otp_length, otp_expiry). Default GoTrue's: 6, 3600. */
  emailOtp?: Partial<EmailOtpSettings>;
  /** GoTrue's [auth.captcha] (provider and secret). Default off, as the Supabase CLI's config. */
  captcha?: CaptchaSettings;
  /** GoTrue's [auth] minimum_password_length and password_requirements. Default 8 characters, lower, upper and digits. */
  passwordPolicy?: PasswordPolicy;
  /** GoTrue's refresh-token reuse interval in seconds. Default 10. */
  refreshReuseSeconds?: number;
  /**
   * bcrypt's cost for new password hashes: "default" (10, GoTrue's) or "quick" (4, what GoTrue's own tests set), for
   * test runs that sign thousands of users up and in. Default "default".
   */
  passwordHashCost?: PasswordHashCost;
  /** Called with one line per request (and per applied migration). Silent when omitted. */
  log?: (line: string) => void;
  /**
   * The app's own routes under /_embedded/, keyed `"<METHOD> /_embedded/<path>"`, answered only with the secret
   * key, as GET /_embedded/mail is.
   */
  routes?: Record<string, EmbeddedRoute>;
}

export interface EmbeddedServer {
  url: string;
  port: number;
  db: PGlite;
  close(): Promise<void>;
}

/** Which API a path belongs to decides the error shape: GoTrue's, PostgREST's, or the gateway's. */
type Surface = "auth" | "rest" | "storage" | "embedded" | "gateway";

/** A percent-decoded path segment; bad escapes (`%zz`, a lone `%`) are the caller's error, never a 500. */
function decodedPathPart(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    throw new PgrstError(400, "PGRST100", "The path is not valid percent-encoding", part, null);
  }
}

function surfaceOf(path: string): Surface {
  if (path === "/auth/v1" || path.startsWith("/auth/v1/")) return "auth";
  if (path === "/rest/v1" || path.startsWith("/rest/v1/")) return "rest";
  if (path === "/storage/v1" || path.startsWith("/storage/v1/")) return "storage";
  if (path.startsWith("/_embedded/")) return "embedded";
  return "gateway";
}

// GoTrue's routes that Supabase's gateway lets through without an apikey
// (links clicked in an e-mail carry none; the JWKS is public by nature).
const OPEN_AUTH_ROUTES = new Set(["GET /verify", "GET /.well-known/jwks.json", "GET /health"]);

/** What /_embedded/ serves before the app's own routes: the auth mail outbox. */
const OWN_ROUTES: Record<string, EmbeddedRoute> = { "GET /_embedded/mail": outboxRoute(readOutbox) };

export async function startEmbeddedServer(options: EmbeddedServerOptions = {}): Promise<EmbeddedServer> {
  const log = options.log;
  const embeddedRoutes = { ...options.routes, ...OWN_ROUTES };
  const ownsDb = !options.db;
  const db = options.db ?? (await openDatabase({ ...options.schema, dataDir: options.dataDir, log }));
  const signer = await TokenSigner.load(options.dataDir);
  const storage = await StorageService.open(db, options.dataDir);
  const host = options.host ?? EMBEDDED_HOST;
  if (!isLoopback(host)) {
    throw new Error(
      `The embedded backend listens on loopback only (asked for ${host}): its keys are published, so anyone who can reach it is an admin.`,
    );
  }
  const redirects: RedirectRules = {
    siteUrl: (options.siteUrl ?? "http://localhost:3000").replace(/\/+$/, ""),
    allowList: options.redirectAllowList ?? [],
  };

  // The URL (and so the token issuer) needs the real port, known only after listen().
  const late: { url: string; port: number; auth?: AuthService } = { url: "", port: 0 };

  const server = createServer((req, res) => {
    const started = Date.now();
    handle(req, res)
      .catch((e: unknown) => {
        // Last line of defence: a bug becomes a 500 with a JSON body, never a crash.
        log?.(`error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
        if (!res.headersSent)
          send(res, { status: 500, body: { message: "Internal server error" } }, req.method ?? "GET");
        else res.destroy();
      })
      .finally(() => log?.(`${req.method} ${req.url} ${res.statusCode} ${Date.now() - started}ms`));
  });
  // Keep-alive sockets from supabase-js (undici) must not hold close() open.
  server.keepAliveTimeout = 5000;

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = (req.method ?? "GET").toUpperCase();
    const parsedUrl = new URL(req.url ?? "/", "http://embedded.invalid");
    const path = parsedUrl.pathname.replace(/\/+$/, "") || "/";
    const surface = surfaceOf(path);
    const origin = header(req, "origin");
    const corsOrigin = origin && corsOriginAllowed(origin, redirects) ? origin : undefined;
    // DNS rebinding: a page on evil.example resolving to 127.0.0.1 reaches this port, with its own Host.
    if (!hostAllowed(header(req, "host"), late.port)) {
      req.resume();
      return send(res, { status: 403, body: { message: "This host is not served: use the loopback address" } }, method);
    }
    if (method === "OPTIONS") return send(res, preflight(), method, corsOrigin);
    let reply: Reply;
    try {
      reply = await route(req, method, path, parsedUrl, surface);
    } catch (e) {
      reply = errorReply(e, surface, req);
    }
    if (surface === "auth" && wantsCurrentApi(header(req, "x-supabase-api-version"))) {
      reply.headers = { "X-Supabase-Api-Version": API_VERSION, ...reply.headers };
    }
    // The rest of a refused body may still be on its way: close the connection after answering, or a
    // kept-alive client's next request on it waits behind bytes nobody reads.
    if (reply.status === 413) reply.headers = { ...reply.headers, Connection: "close" };
    send(res, reply, method, corsOrigin);
  }

  async function route(req: IncomingMessage, method: string, path: string, u: URL, surface: Surface): Promise<Reply> {
    if (surface === "auth") {
      const sub = path.slice("/auth/v1".length) || "/";
      if (!OPEN_AUTH_ROUTES.has(`${method} ${sub}`)) checkApiKey(req);
      const body =
        method === "GET" || method === "HEAD" ? {} : parseBody(req, await readBody(req), { allowForm: true });
      if (!body || typeof body !== "object" || Array.isArray(body)) throw authErrors.badJson("expected a JSON object");
      return late.auth!.handle({
        req,
        method: method === "HEAD" ? "GET" : method,
        path: sub,
        url: u,
        body: body as Record<string, unknown>,
      });
    }
    if (surface === "rest") return restRoute(req, method, path, u);
    if (surface === "storage") return storageRoute(req, method, path, u);
    if (surface === "embedded") return embeddedRoute(req, method, path, u);
    if (method === "GET" && path === "/") {
      return {
        status: 200,
        body: {
          name: "Embedded Supabase",
          auth: `${late.url}/auth/v1`,
          rest: `${late.url}/rest/v1`,
          storage: `${late.url}/storage/v1`,
        },
      };
    }
    return { status: 404, body: { message: "no Route matched with those values" } };
  }

  async function restRoute(req: IncomingMessage, method: string, path: string, u: URL): Promise<Reply> {
    const caller = await resolveCaller(req, signer);
    const rpc = path.match(/^\/rest\/v1\/rpc\/([^/]+)$/);
    if (!rpc) {
      const table = decodedPathPart(path.slice("/rest/v1/".length));
      throw new PgrstError(
        404,
        "PGRST205",
        `Could not find the table 'public.${table}' in the schema cache`,
        null,
        "The embedded backend serves functions only: call them with supabase.rpc().",
      );
    }
    const profile = header(req, method === "POST" ? "content-profile" : "accept-profile");
    if (profile && profile !== "public") {
      throw new PgrstError(406, "PGRST106", "The schema must be one of the following: public", null, null);
    }
    return callRpc(db, { req, method, fn: decodedPathPart(rpc[1]), url: u, caller });
  }

  async function storageRoute(req: IncomingMessage, method: string, path: string, u: URL): Promise<Reply> {
    const parts = path
      .slice("/storage/v1/".length)
      .split("/")
      .map((part) => {
        try {
          return decodeURIComponent(part);
        } catch {
          throw storageErrors.invalidRequest("The path is not valid percent-encoding");
        }
      });
    // Public objects and signed URLs need no key (Supabase's gateway lets them through, so a URL works in an
    // <img>); everything else is checked when the route asks who is calling.
    return storage.handle(req, method, parts, u, () => resolveCaller(req, signer));
  }

  async function embeddedRoute(req: IncomingMessage, method: string, path: string, u: URL): Promise<Reply> {
    if (checkApiKey(req) !== "service_role") {
      return { status: 403, body: { message: "The mail outbox needs the secret key" } };
    }
    const answer = embeddedRoutes[`${method} ${path}`];
    if (answer) return answer({ db, url: u, body: async () => parseBody(req, await readBody(req)) });
    return { status: 404, body: { message: "no Route matched with those values" } };
  }

  function errorReply(e: unknown, surface: Surface, req: IncomingMessage): Reply {
    const version = header(req, "x-supabase-api-version");
    if (e instanceof ApiKeyError) {
      return { status: 401, body: { message: e.message, hint: e.hint } };
    }
    if (surface === "storage") {
      if (e instanceof StorageHttpError) return e.reply();
      if (e instanceof TokenError)
        return storageErrors.invalidJwt(e.kind === "expired" ? "jwt expired" : e.message).reply();
      if (e instanceof BodyTooLargeError) return storageErrors.entityTooLarge().reply();
      if (e instanceof MalformedBodyError) return storageErrors.invalidRequest(e.message).reply();
      if (e instanceof UnsupportedMediaTypeError) return storageErrors.invalidRequest(e.message).reply();
      return unexpected(e, new StorageHttpError(500, "InternalError", "Internal server error", "Internal").reply());
    }
    if (surface === "auth") {
      if (e instanceof AuthError) return authErrorReply(e, version);
      if (e instanceof BodyTooLargeError) return authErrorReply(authErrors.tooLarge(), version);
      if (e instanceof MalformedBodyError) return authErrorReply(authErrors.badJson(e.message), version);
      if (e instanceof UnsupportedMediaTypeError)
        return authErrorReply(authErrors.unsupportedMediaType(e.contentType), version);
      return unexpected(e, authErrorReply(authErrors.unexpected(), version));
    }
    if (e instanceof PgrstError) return e.reply();
    if (e instanceof TokenError) {
      // PostgREST 12+: an expired token is PGRST303, any other bad token PGRST301.
      const expired = e.kind === "expired";
      return new PgrstError(
        401,
        expired ? "PGRST303" : "PGRST301",
        expired ? "JWT expired" : `JWT could not be verified: ${e.message}`,
        null,
        null,
        {
          "WWW-Authenticate": `Bearer error="invalid_token", error_description="${expired ? "JWT expired" : "JWT invalid"}"`,
        },
      ).reply();
    }
    if (e instanceof BodyTooLargeError) {
      return new PgrstError(413, "PGRST413", "Request body is over the 1 MiB limit").reply();
    }
    if (e instanceof MalformedBodyError)
      return new PgrstError(400, "PGRST102", "Empty or invalid json", e.message).reply();
    if (e instanceof UnsupportedMediaTypeError) return new PgrstError(415, "PGRST107", e.message).reply();
    return unexpected(e, {
      status: 500,
      body: { code: "PGRST000", details: null, hint: null, message: "Internal server error" },
    });
  }

  function unexpected(e: unknown, reply: Reply): Reply {
    log?.(`error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    return reply;
  }

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 54321, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const url = `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
  late.url = url;
  late.port = port;
  signer.issuer = `${url}/auth/v1`;
  late.auth = new AuthService({
    db,
    signer,
    issuer: `${url}/auth/v1`,
    appName: options.appName ?? "Supabase",
    mailConfirmation: options.mailConfirmation ?? false,
    mfaVerificationAttemptHook: options.mfaVerificationAttemptHook,
    refreshReuseSeconds: options.refreshReuseSeconds ?? 10,
    redirects,
    rateLimits: { ...GOTRUE_RATE_LIMITS, ...options.rateLimits },
    emailOtp: { ...GOTRUE_EMAIL_OTP, ...options.emailOtp },
    captcha: options.captcha,
    passwordPolicy: options.passwordPolicy ?? DEFAULT_PASSWORD_POLICY,
    passwordHashCost: PASSWORD_HASH_COSTS[options.passwordHashCost ?? "default"],
  });

  let closing: Promise<void> | undefined;
  return {
    url,
    port,
    db,
    close() {
      closing ??= (async () => {
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
        if (ownsDb) await db.close();
      })();
      return closing;
    },
  };
}
