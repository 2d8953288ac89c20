// Loaded with `node --import` into a shop process by tests/e2e/faults.spec.ts:
// once the shop is up, it does what FAULT_PROBE says, as a fault in the
// shop's code would, so the test sees what the process and its log make of it.
//   rejection  a promise rejected that nothing handles
//   exception  an exception thrown from a timer (nothing can catch it)
//   warning    a Node process warning of the kind Node 26 raises for localStorage
const probe = process.env.FAULT_PROBE;

function readSlot(order) {
  return order.slot.y;
}

function fault() {
  if (probe === "rejection") void Promise.resolve().then(() => readSlot({}));
  else if (probe === "exception") readSlot({});
  else if (probe === "warning") process.emitWarning("a probe of an experimental feature", "ExperimentalWarning");
}

// Once the shop answers on its port: the fault meets a running shop, not one starting up.
const timer = setInterval(() => {
  fetch(`http://127.0.0.1:${process.env.PORT}/healthz`).then(
    (response) => {
      if (!response.ok) return;
      clearInterval(timer);
      // From a timer of its own: thrown inside this promise's callback, an exception would be a rejection.
      setTimeout(fault, 0);
    },
    () => undefined,
  );
}, 200);
timer.unref();
