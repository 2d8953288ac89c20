import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll } from "vitest";
import { createHandlers } from "../../mocks";
import { stripeMock } from "../../mocks/stripe";

/**
 * Every test talks to the MSW stand-ins; a request to any other outside
 * address fails the test. Tests override a handler with `server.use(...)`.
 */
export const server = setupServer(...(await createHandlers()));

beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(async () => {
  server.resetHandlers();
  await stripeMock.reset();
});
afterAll(() => server.close());
