-- A full refund Stripe reported for a PaymentIntent no order holds yet: the
-- charge.refunded event came before the payment's checkout.session.completed
-- (whose delivery failed, and the owner refunded in Stripe before Stripe's
-- retry). It is kept here and applied in the transaction that marks the
-- order paid, so the kitchen is never told to make a refunded order.
CREATE TABLE "EarlyRefund" (
    "paymentIntentId" TEXT NOT NULL,
    "refundId" TEXT,
    "amountCents" INTEGER NOT NULL,
    "eventId" TEXT NOT NULL,
    "receivedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "EarlyRefund_pkey" PRIMARY KEY ("paymentIntentId")
);
