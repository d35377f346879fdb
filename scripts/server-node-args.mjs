// Node options of the server process wherever it is started: `npm start`, `npm run dev` and the benchmarks (which
// measure what runs in production). The Dockerfile's CMD repeats them; server/src/config/server-node-args.spec.ts
// keeps the two equal.
//
// --max-semi-space-size: V8's young generation grows to 16 MiB per semi-space by default. A check that waits
// seconds (a ping batch's fping run, a result in the writer's 200 ms batch) then outlives two scavenges, is promoted
// and has to be marked by the old generation's collector; with 32 MiB it dies young. At 10,000 monitors of mixed
// types that was a sixth of the server's CPU, for about 45 MiB more memory (docs/benchmarks.md, docs/decisions.md).
export const SERVER_NODE_ARGS = ['--max-semi-space-size=32'];
