// Package server is gozie's REST server: Oozie's web-services API under the context path
// /oozie (port 11000 by default), Prometheus metrics on /metrics, and the hook through which
// the job, SLA and callback endpoints of other packages are added (Handle).
//
// # Endpoints served here
//
//	GET  /oozie/versions                         [0,1,2]
//	GET  /oozie/v1|v2/admin/status               {"systemMode":"NORMAL"}
//	PUT  /oozie/v1|v2/admin/status?systemmode=M  change the mode (NORMAL, NOWEBSERVICE, SAFEMODE)
//	GET  /oozie/v1|v2/admin/build-version        {"buildVersion":..., "buildInfo":{...}}
//	GET  /oozie/v1|v2/admin/configuration        the server configuration, secrets masked
//	GET  /oozie/v1|v2/admin/available-timezones  {"available-timezones":[{"timezoneDisplayName":...,"timezoneId":...}]}
//	GET  /oozie/v1|v2/admin/os-env, java-sys-properties   the process's environment and properties, secrets masked
//	GET  /oozie/v1/admin/instrumentation         counters, timers and variables from the Prometheus metrics
//	GET  /oozie/v2/admin/metrics                 the same in Dropwizard's JSON (gauges, counters, histograms);
//	                                             v1 answers 400 E0302 "Not supported in v1", as Oozie's
//	GET  /oozie/v1|v2/admin/update_sharelib      {"sharelibUpdate":{"host","status","sharelibDirOld","sharelibDirNew"}}
//	GET  /oozie/v1|v2/admin/queue-dump           {"queueDump":[{"queueItem":...}],"uniqueMapDump":[{"uniqueItem":...}]}
//	GET  /oozie/v2/admin/available-oozie-servers {"<server id>":"<url>"} of the servers heartbeating
//	GET  /oozie/v1|v2/admin/list_sharelib, jmsinfo
//	PUT  /oozie/v2/admin/purge?wf=&coord=&bundle=&limit=&oldcoordaction=   {"purge":"Purge command executed successfully"}
//	GET  /metrics                                Prometheus exposition
//
// # Errors
//
// Every failure is an Oozie error response: an HTTP status, the headers oozie-error-code
// (e.g. E0303) and oozie-error-message ("E0303: Invalid parameter value, [systemmode] =
// [FOO]"), and a JSON body {"httpStatusCode","errorCode","errorMessage"} (Oozie itself sends
// an HTML page; clients read the headers). Handlers return errors; errorFor in errors.go is
// the one place that maps them to status and code:
//
//	unknown resource of a servlet (/oozie/v2/admin/nope)   400 E0301 Invalid resource [nope]
//	path outside every servlet (/oozie/v9/x, /foo)         404 E0301 Invalid resource [/foo]
//	known path, wrong method                               405 E0301 (Oozie answers 400) with Allow
//	parameter not allowed for the method                   400 E0302 Invalid parameter [name]
//	bad parameter value                                    400 E0303 Invalid parameter value, [name] = [value]
//	missing parameter                                      400 E0305 Missing parameter [name]
//	changing request outside NORMAL mode                   503 E0002 System is in safe mode
//	a domain error with ErrorCode() (see Coded)            StatusOf(code), with its code and message:
//	... E0604 or E0605 (no such job/action)                404
//	... any other code of oozieerr                         400
//	any other error or a panic                             500 E0307 Runtime error [...]
//
// # System modes
//
// The effect follows Oozie's servlets rather than the mode names: in both NOWEBSERVICE and
// SAFEMODE, every request other than GET and HEAD is refused with 503 E0002, except on the
// admin endpoints (so the mode can be changed back) and on routes registered with
// AllowInSafeMode (the action callback); reads keep working in both modes. SAFEMODE
// additionally means the engine starts no new work: the server only records the mode, and
// the engine learns of it through Config.OnSystemModeChange or Server.SystemMode.
//
// # Logs and metrics
//
// Every request is logged with log/slog (method, path, status, duration, route, bytes,
// remote address, and the Oozie error code of failures), at debug level for /metrics and
// info otherwise. Metrics are gozie_http_requests_total{route,method,code},
// gozie_http_request_duration_seconds{route,method} and gozie_http_requests_in_flight, where
// route is the route template (e.g. "/oozie/v{version}/admin/status") or "unmatched".
package server
