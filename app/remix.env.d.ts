/// <reference types="@remix-run/dev" />
/// <reference types="@remix-run/node" />

export {};

// Single fetch (remix.config.js): loaders' and actions' data typed as turbo-stream carries it.
declare module "@remix-run/node" {
  interface Future {
    v3_singleFetch: true;
  }
}
