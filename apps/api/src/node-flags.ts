/**
 * The Node.js flags the API runs with (`npm start` and the benchmarks start it with them).
 *
 * `--max-semi-space-size=16`: Node 24 lets the young generation grow to 134 MB under any sustained
 * allocation (a CSV export, a burst of requests), and keeps it; 16 MB (Node 18's default) serves
 * this server's short-lived objects as fast (docs/performance.md, "The export's memory") in a
 * third of the memory.
 */
export const API_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=16'];
