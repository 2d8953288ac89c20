import { createContext, useContext } from "react";

/** The per-request CSP nonce. Only the server knows it; browsers hide it from scripts anyway. */
const NonceContext = createContext("");

export const NonceProvider = NonceContext.Provider;

export function useNonce() {
  return useContext(NonceContext);
}
