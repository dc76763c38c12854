// Package jobsbench is the load benchmark of gozie's REST job endpoints (package
// server/jobs) on PostgreSQL holding a million coordinator actions.
//
// It has three parts:
//
//   - a fixture (Spec, Seed): coordinator jobs, their actions and the workflow jobs of
//     their newest actions, with realistic column contents (a coordinator action's XML
//     is 1–2 KB), written straight into the tables with COPY, then vacuumed and
//     analyzed, as a long-lived database would be;
//   - a cache of seeded databases (Database): a seeded database is kept on the server
//     as a template named by a hash of the schema migrations and the Spec, and each
//     benchmark run gets a file copy of it, so that only the first run against a server
//     pays for seeding;
//   - a load generator (Load): a fixed number of GET requests from concurrent clients,
//     every latency recorded, for p50, p99 and requests per second;
//   - an open-loop load (OpenLoad): requests sent at a fixed arrival rate whatever the
//     answers, each latency counted from the time its request was due.
//
// BenchmarkREST in this package puts them together behind the real REST stack
// (server.New, jobs.Register, the PostgreSQL store, the workflow and coordinator
// runners) on a loopback httptest server. It needs GOZIE_TEST_POSTGRES, as `make bench`
// sets it; the figures are recorded in BENCHMARKS.md.
package jobsbench
