package coordinator

import (
	"time"

	"github.com/gozie/gozie/oozietime"
)

// NextNominalTime returns the nominal time of the action that follows action number
// `number` (whose nominal time is nominal), and false when that time is after the job's end
// (so the action is the last one). LAST_ONLY execution skips an action once this time has
// passed. As in Oozie, a non-cron job computes it as start + number×frequency, then moves it
// to the end of its day, week or month for endOf* frequencies; a cron job takes the next fire
// time after nominal.
func (j *Job) NextNominalTime(start, end time.Time, number int, nominal time.Time) (time.Time, bool) {
	var next time.Time
	if j.Frequency.Unit == oozietime.Cron {
		n, ok := j.Frequency.Cron.Next(nominal, j.Format.Location())
		if !ok {
			return time.Time{}, false
		}
		next = n
	} else {
		next = oozietime.AddUnits(start, j.Frequency.Unit, number*j.Frequency.N, j.Location)
		next = oozietime.MoveToEnd(next, j.Frequency.EndOf, j.Location)
	}
	if next.After(end) {
		return time.Time{}, false
	}
	return next, true
}
