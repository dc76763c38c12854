// Package oozietime is time as Oozie and the Java runtime under it see it: time-zone IDs,
// Oozie's datetime format, calendar arithmetic in frequency units, and Quartz cron
// expressions. Everything here is a pure function of its arguments (no clock, no I/O), and
// the package imports nothing of gozie, so that any package (the coordinator and bundle
// cores, el, sla, the REST server, the CLI) can use it without pulling in an engine.
//
// What it owns, with the Oozie or Java class whose rules it reproduces:
//
//   - Time-zone IDs (zone.go): [LoadZone] resolves an ID as DateUtils.getTimeZone does over
//     java.util.TimeZone: GMT±HHMM is rewritten to GMT±HH:MM, the ID must round-trip, Java's
//     legacy three-letter IDs (PST, IST, BST, EST, ...) mean what Java means, and anything
//     else fails with "Invalid TimeZone: <id>" ([ZoneError]). Go's zone database is embedded
//     (time/tzdata), as Java carries its own.
//   - Oozie's datetime format (format.go): [Format] is the processing time zone
//     (oozie.processing.timezone, UTC or GMT±HHMM) with its mask, yyyy-MM-dd'T'HH:mm'Z' or
//     yyyy-MM-dd'T'HH:mm±HHMM, parsed as DateUtils.parseDateOozieTZ does with a strict
//     java.text.SimpleDateFormat and printed as DateUtils.formatDateOozieTZ and formatDate
//     do. [Layout] and the other layout constants are the same masks for time.Parse and
//     time.Format; they are written here and nowhere else.
//   - Java date patterns (javafmt.go): [FormatJava] formats with a SimpleDateFormat pattern
//     in the en-US locale, for coord:formatTime.
//   - Calendar arithmetic (unit.go): [Unit] is Oozie's org.apache.oozie.coord.TimeUnit;
//     [AddUnits] steps like java.util.GregorianCalendar.add (minutes and hours are elapsed
//     time, days and longer keep the wall clock across daylight-saving changes, months clamp
//     the day); [MoveToEnd] and [HoursInDay] are DateUtils.moveToEnd and hoursInDay;
//     [DSTOffset] is DaylightOffsetCalculator; [StepIndex] finds the step of a series that is
//     current at an instant.
//   - Cron frequencies (cron.go): [ParseCron] and [CronSpec.Next] follow
//     org.quartz.CronExpression, which Oozie uses for cron coordinators (five fields, L, W,
//     #, ?, names, wrapping ranges).
//
// What a coordinator does with these (materialization, datasets, the coord: EL functions) is
// coordinator logic and stays in package coordinator.
package oozietime
