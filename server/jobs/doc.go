// Package jobs serves Oozie's job endpoints on gozie's REST server: submitting, listing,
// inspecting and controlling jobs, the action callback and document validation.
//
//	POST /oozie/v1|v2/jobs[?action=start|dryrun]       submit a job configuration → 201 {"id":...}
//	POST /oozie/v1|v2/jobs?jobtype=mapreduce|hive      proxy submission: a generated one-action workflow
//	GET  /oozie/v1|v2/jobs?jobtype=wf|coordinator|bundle&filter=&offset=&len=&timezone=
//	                   {"workflows"|"coordinatorjobs"|"bundlejobs":[...],"total","offset","len"}
//	GET  /oozie/v1|v2/jobs?external-id=<id>            {"id":<workflow id or null>}
//	GET  /oozie/v1|v2/jobs?bulk=bundle=b;coordinators=;actionstatus=;startcreatedtime=;...
//	                   {"bulkresponses":[{"bulkbundle","bulkcoord","bulkaction"}],"total","offset","len"}
//	PUT  /oozie/v1|v2/jobs?action=kill|suspend|resume&filter=...&jobtype=[&offset=&len=]   (bulk)
//	GET  /oozie/v1|v2/job/<id>?show=info|definition|log|errorlog|auditlog|status[&timezone=][&offset=&len=]
//	     (log, errorlog, auditlog: &logfilter=recent=;start=;end=;loglevel=;text=;limit=;debug, coordinator logs &type=&scope=)
//	GET  /oozie/v2/job/<wf id>@<node>?show=retries     {"retries":[{"attempt","startTime","endTime",...}]}
//	     (coordinators: &order=desc, &filter=status=X;nominaltime>=T)
//	GET  /oozie/v1|v2/job/<wf id>?show=graph[&format=png|svg|dot][&show-kill=true]
//	GET  /oozie/v1|v2/job/<coord id>?show=missing-dependencies[&action-list=1,3-4|&date=...]
//	GET  /oozie/v1|v2/job/<coord id>@<n>?show=allruns     every workflow run of the action
//	PUT  /oozie/v1|v2/job/<id>?action=start|suspend|resume|kill|rerun   (workflows)
//	PUT  /oozie/v1|v2/job/<id>?action=suspend|resume|kill|change|ignore|coord-rerun
//	     [&type=action|date&scope=...][&value=...][&refresh=&nocleanup=&failed=]   (coordinators;
//	     ignore is v2's only, as in Oozie: every v1 ignore, and a v2 ignore of a workflow or
//	     bundle, is 400 E0302 in Oozie's words)
//	PUT  /oozie/v1|v2/job/<id>?action=start|suspend|resume|kill|change|bundle-rerun
//	     [&value=pausetime=...;endtime=...][&coord-scope=&date-scope=&refresh=&nocleanup=]   (bundles)
//	PUT  /oozie/v2/job/<coord id>?action=update[&dryrun=true]   {"update":{"diff":...}}
//	PUT  /oozie/v2/job/<id>?action=sla-enable|sla-disable|sla-change[&value=][&action-list=|&date=|&coordinators=]
//	PUT  /oozie/v2/dataset?action=notify&uri=<uri>     {"notified":N} (gozie's push for datasets)
//	GET|POST /oozie/callback?id=<action id>&status=<status>   (also in SAFEMODE)
//	POST /oozie/v2/validate?file=<path>&user=<user>    {"validate":"Valid workflow-app"} (workflow, coordinator,
//	     bundle), or "Warning: ... E0723 ..." for a workflow with action types gozie does not run
//
// Workflows, coordinators and bundles are served (coordinators through Deps.Coordinators,
// bundles through Deps.Bundles; without them their requests are refused like unsupported
// ones). A coordinator's info pages its actions as Oozie does: v1 gives up to 1000 actions
// by default, v2 none unless len is given (a negative len means 1000). A bundle's info
// lists its coordinator jobs (bundleCoordJobs). The show values Oozie has and gozie does not serve
// (jmstopic: gozie has no JMS, it calls webhooks; wf-actions-in-coord) are answered with a
// clear 400 E0302 "... not supported yet". Every command through these endpoints leaves an
// audit record (see audit.go); reads do not.
//
// # Reads and writes
//
// Commands (submit, start, suspend, resume, kill, rerun, change, ignore, callback) go
// through the workflow runner, the coordinator engine or the bundle engine, whose errors
// carry Oozie codes that the server maps to responses in one place (server.Coded). Reads
// (info, definition, log, status, listings) go to the store directly, each in one
// transaction.
//
// # Dates
//
// JSON dates are RFC 822 strings ("Thu, 01 Jan 2009 00:00:00 GMT") in the zone named by the
// timezone parameter, GMT by default. Zone ids follow Java's rules (America/Los_Angeles, UTC,
// GMT+05:30, PST...); an id Java would not accept is 400 E0303, where Oozie silently falls
// back to GMT.
package jobs
