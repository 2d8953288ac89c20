import { randomUUID } from "node:crypto";
import path from "node:path";
import { inject } from "vitest";

// Runs before each test file imports the app: a test configuration with
// Stripe and the geocoder pointed at the MSW stand-ins (see tests/setup/msw.ts).
process.env.STRIPE_SECRET_KEY = "sk_test_chillpb_tests";
process.env.STRIPE_WEBHOOK_SECRET = "whsec_chillpb_tests";
process.env.STRIPE_TIMEOUT_MS = "400";
process.env.GEOCODER_TIMEOUT_MS = "300";
process.env.MOCKS = "false";
process.env.PUBLIC_URL = "http://shop.test";
process.env.FULFILMENT_EMAIL = "kitchen@chillpb.test";
process.env.TEST_CHECKOUT_EMAIL = "admin-test@chillpb.test";
// The app's log lines go to a file of this test file's own, not into the test output.
process.env.LOG_FILE = path.join(inject("logDir"), `${randomUUID()}.jsonl`);
