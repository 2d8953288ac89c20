// The demo's stand-in for Stripe's hosted payment page, kept with the other stand-ins in mocks/:
// it answers 404 unless MOCKS=true (decision 092).
export { action, default, loader, meta } from "../../mocks/payment-page";
