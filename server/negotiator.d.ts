// negotiator 0.6.4 (the version the `compression` middleware uses) ships no
// types, and @types/negotiator lacks `encoding`'s second argument, the
// encodings preferred when the browser ranks several equally. The part
// server/compression.mjs uses.
declare module "negotiator" {
  import type { IncomingMessage } from "node:http";
  export default class Negotiator {
    constructor(request: IncomingMessage);
    encoding(available: string[], preferred?: string[]): string | undefined;
  }
}
