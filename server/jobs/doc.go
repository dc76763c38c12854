// Package jobs serves Oozie's job endpoints on gozie's REST server: submitting, listing,
// inspecting and controlling jobs, the action callback and document validation.
//
//	POST /oozie/v1|v2/jobs[?action=start|dryrun]       submit a job configuration → 201 {"id":...}
//	GET  /oozie/v1|v2/jobs?jobtype=wf&filter=&offset=&len=&timezone=
//	                                                   {"workflows":[...],"total","offset","len"}
//	GET  /oozie/v1|v2/job/<id>?show=info|definition|log|status[&timezone=][&offset=&len=]
//	PUT  /oozie/v1|v2/job/<id>?action=start|suspend|resume|kill|rerun
//	GET|POST /oozie/callback?id=<action id>&status=<status>   (also in SAFEMODE)
//	POST /oozie/v2/validate?file=<path>&user=<user>    {"validate":"Valid workflow-app"}
//
// Workflows are served in full. Coordinator and bundle jobs are recognised (by app-path
// property, job type or id) and answered with a clear 400 E0302 "... not supported yet"
// until their engines are wired in; the filter grammar, paging and dates are already shared
// (see ParseFilter), so they slot in by adding a lister and an info function.
//
// # Reads and writes
//
// Commands (submit, start, suspend, resume, kill, rerun, callback) go through the workflow
// runner, whose errors carry Oozie codes that the server maps to responses in one place
// (server.Coded). Reads (info, definition, log, status, listings) go to the store directly,
// each in one transaction.
//
// # Dates
//
// JSON dates are RFC 822 strings ("Thu, 01 Jan 2009 00:00:00 GMT") in the zone named by the
// timezone parameter, GMT by default. Zone ids follow Java's rules (America/Los_Angeles, UTC,
// GMT+05:30, PST...); an id Java would not accept is 400 E0303, where Oozie silently falls
// back to GMT.
package jobs
