package coordinator

import (
	"github.com/gozie/gozie/el"
	"github.com/gozie/gozie/oozietime"
)

// buildRegistries builds the function registry of every phase, following Oozie's evaluator
// groups (oozie-default.xml). EL's basic functions are available everywhere; the HCatalog
// functions are in el_hcat.go. hadoop:conf is not provided.
func buildRegistries() map[Phase]*el.Registry {
	common := func() *el.Registry {
		r := el.Basic()
		r.RegisterArity("coord:conf", 1, fnConf)
		r.RegisterArity("coord:user", 0, fnUser)
		return r
	}
	frequency := func(r *el.Registry) {
		r.RegisterArity("coord:minutes", 1, frequencyFunc("minutes", oozietime.Minute, oozietime.NoUnit, 1))
		r.RegisterArity("coord:hours", 1, frequencyFunc("hours", oozietime.Minute, oozietime.NoUnit, 60))
		r.RegisterArity("coord:days", 1, frequencyFunc("days", oozietime.Day, oozietime.NoUnit, 1))
		r.RegisterArity("coord:months", 1, frequencyFunc("months", oozietime.Month, oozietime.NoUnit, 1))
	}
	dates := func(r *el.Registry) {
		r.RegisterArity("coord:dateOffset", 3, fnDateOffset)
		r.RegisterArity("coord:dateTzOffset", 2, fnDateTzOffset)
		r.RegisterArity("coord:formatTime", 2, fnFormatTime)
		r.RegisterArity("coord:epochTime", 2, fnEpochTime)
	}
	action := func(r *el.Registry) {
		r.RegisterArity("coord:actionId", 0, fnActionID)
		r.RegisterArity("coord:name", 0, fnName)
		r.RegisterArity("coord:nominalTime", 0, fnNominalTime)
		r.RegisterArity("coord:actualTime", 0, fnActualTime)
	}
	measures := func(r *el.Registry) {
		r.RegisterArity("coord:hoursInDay", 1, fnHoursInDay)
		r.RegisterArity("coord:daysInMonth", 1, fnDaysInMonth)
		r.RegisterArity("coord:tzOffset", 0, fnTzOffset)
	}
	// Echo functions of the submission phases render the call for a later phase.
	submitEchoes := func(r *el.Registry) {
		r.RegisterArity("coord:dateOffset", 3, echo("dateOffset", " , "))
		r.RegisterArity("coord:dateTzOffset", 2, echo("dateTzOffset", " , "))
		r.RegisterArity("coord:formatTime", 2, echo("formatTime", " , ", 0))
		r.RegisterArity("coord:epochTime", 2, echo("epochTime", " , ", 0))
		r.RegisterArity("coord:actionId", 0, echo("actionId", ""))
		r.RegisterArity("coord:name", 0, echo("name", ""))
		r.RegisterArity("coord:actualTime", 0, echo("actualTime", ""))
	}

	out := map[Phase]*el.Registry{}

	r := common()
	frequency(r)
	r.RegisterArity("coord:endOfDays", 1, frequencyFunc("endOfDays", oozietime.Day, oozietime.EndOfDay, 1))
	r.RegisterArity("coord:endOfWeeks", 1, frequencyFunc("endOfWeeks", oozietime.Week, oozietime.EndOfWeek, 1))
	r.RegisterArity("coord:endOfMonths", 1, frequencyFunc("endOfMonths", oozietime.Month, oozietime.EndOfMonth, 1))
	out[PhaseSubmitFreq] = r

	r = common()
	frequency(r)
	out[PhaseWaitTimeout] = r

	out[PhaseSubmitNoFuncs] = common()

	r = common()
	r.RegisterArity("coord:dateOffset", 3, fnDateOffset)
	r.RegisterArity("coord:dateTzOffset", 2, fnDateTzOffset)
	out[PhaseSubmitInitialInstance] = r

	r = common()
	r.RegisterArity("coord:hoursInDay", 1, fixed("24"))
	r.RegisterArity("coord:daysInMonth", 1, fixed("30"))
	r.RegisterArity("coord:tzOffset", 0, fixed("3"))
	r.RegisterArity("coord:current", 1, echo("current", ""))
	r.RegisterArity("coord:currentRange", 2, echo("currentRange", ", "))
	r.RegisterArity("coord:offset", 2, echo("offset", " , "))
	r.RegisterArity("coord:latest", 1, echo("latest", ""))
	r.RegisterArity("coord:latestRange", 2, echo("latestRange", ", "))
	r.RegisterArity("coord:future", 2, echo("future", ", "))
	r.RegisterArity("coord:futureRange", 3, echo("futureRange", ", "))
	r.RegisterArity("coord:absolute", 1, echo("absolute", ""))
	r.RegisterArity("coord:endOfMonths", 1, echo("endOfMonths", ""))
	r.RegisterArity("coord:endOfWeeks", 1, echo("endOfWeeks", ""))
	r.RegisterArity("coord:endOfDays", 1, echo("endOfDays", ""))
	r.RegisterArity("coord:formatTime", 2, echo("formatTime", " , ", 0))
	r.RegisterArity("coord:epochTime", 2, echo("epochTime", " , ", 0))
	r.RegisterArity("coord:dateOffset", 3, echo("dateOffset", " , "))
	r.RegisterArity("coord:dateTzOffset", 2, echo("dateTzOffset", " , "))
	out[PhaseSubmitInstances] = r

	r = common()
	submitEchoes(r)
	r.RegisterArity("coord:dataIn", 1, dataNameEcho("dataIn", "data-in"))
	r.RegisterArity("coord:dataOut", 1, dataNameEcho("dataOut", "data-out"))
	r.RegisterArity("coord:nominalTime", 0, echo("nominalTime", ""))
	out[PhaseSubmitData] = r

	r = common()
	submitEchoes(r)
	r.RegisterArity("coord:dataOut", 1, dataNameEcho("dataOut", "data-out"))
	r.RegisterArity("coord:nominalTime", 0, fixed("2009-03-06T010:00"))
	out[PhaseSLASubmit] = r

	r = common()
	measures(r)
	r.RegisterArity("coord:current", 1, fnCurrent)
	r.RegisterArity("coord:currentRange", 2, fnCurrentRange)
	r.RegisterArity("coord:offset", 2, fnOffset)
	r.RegisterArity("coord:absoluteRange", 2, fnAbsoluteRange)
	r.RegisterArity("coord:latest", 1, checkedEcho("latest"))
	r.RegisterArity("coord:latestRange", 2, checkedEcho("latestRange"))
	r.RegisterArity("coord:future", 2, checkedEcho("future"))
	r.RegisterArity("coord:futureRange", 3, checkedEcho("futureRange"))
	r.RegisterArity("coord:absolute", 1, echo("absolute", ""))
	r.RegisterArity("coord:endOfMonths", 1, echo("endOfMonths", ""))
	r.RegisterArity("coord:endOfWeeks", 1, echo("endOfWeeks", ""))
	r.RegisterArity("coord:endOfDays", 1, echo("endOfDays", ""))
	r.RegisterArity("coord:actionId", 0, fnActionID)
	r.RegisterArity("coord:name", 0, fnName)
	r.RegisterArity("coord:formatTime", 2, fnFormatTime)
	r.RegisterArity("coord:epochTime", 2, fnEpochTime)
	out[PhaseActionCreate] = r

	r = common()
	measures(r)
	dates(r)
	for _, kind := range []string{"current", "latest", "endOfMonths", "endOfWeeks", "endOfDays", "absolute"} {
		r.RegisterArity("coord:"+kind, 1, refFunc(kind))
	}
	for _, kind := range []string{"offset", "future", "currentRange", "latestRange"} {
		r.RegisterArity("coord:"+kind, 2, refFunc(kind))
	}
	r.RegisterArity("coord:futureRange", 3, refFunc("futureRange"))
	r.RegisterArity("coord:absoluteRange", 2, fnAbsoluteRange)
	out[PhaseActionCreateInst] = r

	r = common()
	dates(r)
	action(r)
	r.RegisterArity("coord:dataOut", 1, fnDataOut)
	out[PhaseSLACreate] = r

	r = common()
	dates(r)
	action(r)
	measures(r)
	r.RegisterArity("coord:latest", 1, fnLatest)
	r.RegisterArity("coord:latestRange", 2, fnLatestRange)
	r.RegisterArity("coord:future", 2, fnFuture)
	r.RegisterArity("coord:futureRange", 3, fnFutureRange)
	r.RegisterArity("coord:dataIn", 1, fnDataIn)
	r.RegisterArity("coord:dataOut", 1, fnDataOut)
	out[PhaseActionStart] = r
	registerHCat(out) // el_hcat.go
	return out
}
