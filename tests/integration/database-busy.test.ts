import { randomUUID } from "node:crypto";
import { once } from "node:events";
import { createServer, type AddressInfo } from "node:net";
import { createRequestHandler, type ActionFunctionArgs, type SerializeFrom, type ServerBuild } from "@remix-run/node";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { createPrismaClient, db, isDatabaseBusy, isUniqueViolation } from "~/utils/db.server";
import {
  browser,
  callRoute,
  shopRequest,
  cartClient,
  checkoutBody,
  jsonRequest,
  readJson,
  shipping,
  uniqueEmail,
  type CheckoutJson,
  type ErrorJson,
} from "../utils";

/**
 * A full connection pool (decision 043): a request that can get no database
 * connection within DATABASE_POOL_TIMEOUT_MS is answered 503 with
 * Retry-After, not 500, and the same request goes through once connections
 * are free. The shop here is another instance in this process with a pool of
 * two connections, both held by transactions that wait; the rest of the test
 * (the cart, the stand-in's sessions) uses this file's usual client.
 */

const POOL_SIZE = 2;
const POOL_TIMEOUT_MS = 300;

// The process's client and pool (app/utils/db.server.ts), set aside so the modules imported afresh make their own.
const globalForDb = globalThis as typeof globalThis & { __database?: unknown };

type Instance = Awaited<ReturnType<typeof smallPoolInstance>>;

/** The checkout's routes imported afresh, over a client of their own made with a pool of POOL_SIZE. */
async function smallPoolInstance() {
  const ours = globalForDb.__database;
  globalForDb.__database = undefined;
  vi.resetModules();
  try {
    return await withSmallPool(async () => {
      const functionRoute = await import("~/routes/functions.v1.$name");
      const simpleCheckout = { action: (args: ActionFunctionArgs) => functionRoute.action({ ...args, params: { name: "simple-checkout" } }) };
      const checkoutPage = await import("~/routes/checkout/route");
      const entry = await import("~/entry.server");
      const { db } = await import("~/utils/db.server");
      return { simpleCheckout, checkoutPage, entry, db };
    });
  } finally {
    globalForDb.__database = ours;
  }
}

/** Makes something (a client, modules that make one) while the pool settings are this test's: POOL_SIZE connections, POOL_TIMEOUT_MS to get one. */
async function withSmallPool<T>(make: () => T | Promise<T>): Promise<T> {
  process.env.DATABASE_POOL_SIZE = String(POOL_SIZE);
  process.env.DATABASE_POOL_TIMEOUT_MS = String(POOL_TIMEOUT_MS);
  try {
    return await make();
  } finally {
    delete process.env.DATABASE_POOL_SIZE;
    delete process.env.DATABASE_POOL_TIMEOUT_MS;
  }
}

/** Holds every connection of the instance's pool in a transaction until `release` is called. */
async function holdEveryConnection(instance: Instance) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let holding = 0;
  let allHeld!: () => void;
  const held = new Promise<void>((resolve) => (allHeld = resolve));
  const hold = async (): Promise<void> => {
    try {
      await instance.db.$transaction(
        async (tx) => {
          await tx.$queryRaw`SELECT 1`;
          if (++holding === POOL_SIZE) allHeld();
          await released;
        },
        { maxWait: 10_000, timeout: 60_000 },
      );
    } catch (error) {
      // On a loaded machine a new connection can take longer than POOL_TIMEOUT_MS to open: that holder tries again.
      if (!isDatabaseBusy(error)) throw error;
      return hold();
    }
  };
  const holders = Array.from({ length: POOL_SIZE }, hold);
  // Every connection held, or a holder's failure at once (not the test's timeout).
  await Promise.race([held, Promise.all(holders)]);
  return async () => {
    release();
    await Promise.all(holders);
  };
}

let instance: Instance;

beforeAll(async () => {
  instance = await smallPoolInstance();
});
afterAll(async () => {
  await instance.db.$disconnect();
});
beforeEach(() => {
  vi.spyOn(console, "warn").mockImplementation(() => undefined);
  vi.spyOn(console, "error").mockImplementation(() => undefined);
  return () => vi.restoreAllMocks();
});

describe("no free database connection", () => {
  it("is what node-pg's pool answers when every connection stays in use for DATABASE_POOL_TIMEOUT_MS", async () => {
    const release = await holdEveryConnection(instance);
    try {
      const failure = await instance.db.order.count().then(
        () => new Error("the query got a connection from a full pool"),
        (error: unknown) => error,
      );
      expect(failure).toBeInstanceOf(Error);
      expect((failure as Error).message).toBe("timeout exceeded when trying to connect");
      expect(isDatabaseBusy(failure)).toBe(true);
    } finally {
      await release();
    }
    // Released, the pool serves again.
    await expect(instance.db.order.count()).resolves.toEqual(expect.any(Number));
  });

  it("is what node-pg's pool answers when a new connection does not open within DATABASE_POOL_TIMEOUT_MS", async () => {
    // A server that accepts connections and never answers them.
    const silent = createServer(() => undefined);
    silent.listen(0, "127.0.0.1");
    await once(silent, "listening");
    const { port } = silent.address() as AddressInfo;
    const client = await withSmallPool(() => createPrismaClient(`postgresql://nobody@127.0.0.1:${port}/nothing`));
    try {
      const failure = await client.$queryRaw`SELECT 1`.then(
        () => new Error("connected to a server that never answers"),
        (error: unknown) => error,
      );
      expect((failure as Error).message).toBe("Connection terminated due to connection timeout");
      expect(isDatabaseBusy(failure)).toBe(true);
    } finally {
      await client.$disconnect();
      silent.close();
    }
  });

  it("is what PostgreSQL answers when it takes no more connections (53300), for model and raw queries alike", async () => {
    const role = `busy_${randomUUID().replaceAll("-", "").slice(0, 12)}`;
    await db.$executeRawUnsafe(`CREATE ROLE "${role}" LOGIN PASSWORD 'busy' CONNECTION LIMIT 0`);
    const url = new URL(process.env.DATABASE_URL!);
    url.username = role;
    url.password = "busy";
    const client = createPrismaClient(url.toString());
    try {
      for (const query of [() => client.order.count(), () => client.$queryRaw`SELECT 1`]) {
        const failure = await query().then(
          () => new Error("connected past the role's connection limit"),
          (error: unknown) => error,
        );
        expect((failure as Error).message).toMatch(/too many connections for role/);
        expect(isDatabaseBusy(failure)).toBe(true);
      }
    } finally {
      await client.$disconnect();
      await db.$executeRawUnsafe(`DROP ROLE "${role}"`);
    }
  });

  it("is nothing else: a unique violation, a plain error, a thrown string", async () => {
    for (const error of [new Error("connect ECONNREFUSED 127.0.0.1:5432"), new Error("Timed out"), "timeout exceeded when trying to connect", null]) {
      expect(isDatabaseBusy(error)).toBe(false);
    }
    const duplicate = await db.product.create({ data: { ...(await db.product.findFirstOrThrow()), facts: undefined } }).then(
      () => null,
      (error: unknown) => error,
    );
    expect(isUniqueViolation(duplicate)).toBe(true);
    expect(isDatabaseBusy(duplicate)).toBe(false);
  });

  it("simple-checkout answers 503 with Retry-After and { error }, and places the order once connections are free", async () => {
    const body = checkoutBody([["bites-variety", 3]], { email: uniqueEmail("busy") });
    const release = await holdEveryConnection(instance);
    let busy: Response;
    try {
      busy = await callRoute(instance.simpleCheckout.action, jsonRequest("/functions/v1/simple-checkout", body));
    } finally {
      await release();
    }
    expect(busy.status).toBe(503);
    expect(busy.headers.get("Retry-After")).toBe("5");
    expect(busy.headers.get("Cache-Control")).toBe("no-store");
    expect(await readJson<ErrorJson>(busy)).toEqual({ error: "The shop is very busy right now. Please try again in a few seconds." });

    const placed = await callRoute(instance.simpleCheckout.action, jsonRequest("/functions/v1/simple-checkout", body));
    expect(placed.status).toBe(200);
    expect(await readJson<CheckoutJson>(placed)).toMatchObject({ orderId: expect.any(String), url: expect.any(String) });
  });

  it("the checkout page's Place Order answers 503 with Retry-After and the spec's message, keeps what was typed, and places the order once connections are free", async () => {
    type Answer = SerializeFrom<typeof instance.checkoutPage.action>;
    const visitor = browser();
    expect((await cartClient(visitor).post({ intent: "add", productId: "bites-variety", quantity: "3" })).status).toBe(200);
    const email = uniqueEmail("busy-page");
    const fields = { ...shipping({ email }), code: "" };
    const checked = await readJson<Extract<Answer, { values: unknown }>>(
      await visitor.post(instance.checkoutPage.action, "/checkout", { intent: "check-delivery", ...fields }),
    );
    // Place Order, with a name changed since the address was checked.
    const placeOrder = {
      intent: "place-order",
      ...fields,
      firstName: "Busyday",
      checkedAddress: checked.delivery!.addressKey,
      quotedTotalCents: String(checked.summary.totalCents),
    };

    const release = await holdEveryConnection(instance);
    let busy: Response;
    try {
      busy = await visitor.post(instance.checkoutPage.action, "/checkout", placeOrder);
    } finally {
      await release();
    }
    expect(busy.status).toBe(503);
    expect(busy.headers.get("Retry-After")).toBe("5");
    expect(busy.headers.get("Cache-Control")).toBe("no-store");
    expect(await readJson<Answer>(busy)).toEqual({
      busy: true,
      message: { title: "Checkout Error", description: "There was an error processing your order. Please try again.", destructive: true },
    });
    // Nothing was placed, and the form as sent is kept in the checkout's draft: the page opens with it.
    expect(await instance.db.order.count({ where: { email } })).toBe(0);
    const reopened = await readJson<SerializeFrom<typeof instance.checkoutPage.loader>>(await visitor.get(instance.checkoutPage.loader, "/checkout"));
    expect(reopened.checkout?.values).toMatchObject({ email, firstName: "Busyday" });

    const placed = await visitor.post(instance.checkoutPage.action, "/checkout", placeOrder);
    expect(placed.status).toBe(200);
    expect(await readJson<Extract<Answer, { values: unknown }>>(placed)).toMatchObject({ placed: { orderId: expect.any(String) } });
  });

  it("a page's loader that found no free connection is answered 503 with Retry-After through Remix (a client navigation to /checkout), and normally once connections are free", async () => {
    // Remix's own request handler over the app's entry (handleError, handleDataRequest) and the checkout's route.
    const build = {
      mode: "production",
      entry: { module: instance.entry },
      routes: {
        root: { id: "root", path: "", module: {} },
        "routes/checkout": { id: "routes/checkout", parentId: "root", path: "checkout", module: instance.checkoutPage },
      },
      assets: { routes: {}, entry: { imports: [], module: "" }, url: "", version: "" },
      future: { v3_singleFetch: true },
      publicPath: "/build/",
      assetsBuildDirectory: "public/build",
      isSpaMode: false,
    } as unknown as ServerBuild;
    const remix = createRequestHandler(build);
    const visitor = browser();
    const added = await cartClient(visitor).post({ intent: "add", productId: "bites-variety", quantity: "3" });
    const cart = added.headers
      .getSetCookie()
      .map((cookie) => cookie.split(";")[0])
      .join("; ");
    // A client navigation's data, as single fetch asks for it.
    const navigate = () => remix(shopRequest("/checkout.data", { cookie: cart }), { clientAddress: "127.0.0.1" });

    const release = await holdEveryConnection(instance);
    let busy: Response;
    try {
      busy = await navigate();
    } finally {
      await release();
    }
    expect(busy.status).toBe(503);
    expect(busy.headers.get("Retry-After")).toBe("5");
    expect(busy.headers.get("Cache-Control")).toBe("no-store");
    // Still Remix's answer, with the loader's error in it, so the page shows its error boundary (and keeps the cart: it is a cookie).
    expect(await busy.text()).toContain("Error");

    const normal = await navigate();
    expect(normal.status).toBe(200);
    expect(await normal.text()).toContain("checkout");
  });
});
