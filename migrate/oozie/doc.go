// Package oozie reads a running (or copied) Apache Oozie's state from Oozie's
// own database schema into plain Go values, and decides, job by job, what
// gozie can take over: the verdicts of `gozie migrate oozie`.
//
// The schema is that of Oozie 4.x and 5.x's JPA beans: tables WF_JOBS,
// WF_ACTIONS, COORD_JOBS, COORD_ACTIONS, BUNDLE_JOBS, BUNDLE_ACTIONS,
// SLA_REGISTRATION and SLA_SUMMARY, statuses as the enum names Oozie writes,
// timestamps as SQL TIMESTAMP in the Oozie server's zone (GMT, as Oozie's
// scripts start it), and large values as BLOBs that may carry Oozie's
// compression header (see DecodeBlob). Nothing here writes to Oozie's
// database: the reader only runs SELECTs.
//
// Reading is separate from judging: Read returns every row with the
// problems found while decoding it (a FieldError naming the table, the
// row's id, the column and an Oozie error code), and Plan turns a snapshot
// into one Unit per top-level job with its verdict, so that a bad row
// refuses its own job and no other.
package oozie
