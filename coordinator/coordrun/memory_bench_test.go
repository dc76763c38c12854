package coordrun

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
	"strconv"
	"testing"
	"time"

	"github.com/gozie/gozie/internal/gcbudget"
	"github.com/gozie/gozie/internal/procstat"
	"github.com/gozie/gozie/store"
)

// BenchmarkMemoryManyCoordinators: what a server costs in memory and CPU
// while it holds 10,000 active hourly coordinators with an input dataset.
// Each coordinator is submitted from its own configuration (so that each
// has its own parsed definition, as distinct jobs do); one operation is one
// simulated hour in real time: five minutes before the hour every
// coordinator materializes its next action ahead (WAITING, its timeout
// armed), at the hour every input check runs and misses, then the hour's
// done-flag appears and the checks' next retry finds it (READY). Run it
// with -benchtime 24x for a simulated day. Concurrency 0 keeps workflows
// out: the work measured is the coordinators'.
//
// It reports this process's resident memory (peak over the measured hours,
// VmHWM, reset after the jobs are stored, and at the end, VmRSS), the Go
// heap in use (peak over the hours and at the end), goroutines (peak), and
// CPU seconds (user + system) per simulated hour. With SQLite the database
// is in the process and its cache is counted; PostgreSQL's is not.
// GOZIE_BENCH_COORDS changes the number of coordinators; GOZIE_BENCH_HEAPPROFILE
// names a file for a heap profile taken at the end, while the world is still
// up (-memprofile is taken after it is torn down):
//
//	go tool pprof -top -sample_index=inuse_space FILE
func BenchmarkMemoryManyCoordinators(b *testing.B) {
	for _, backend := range benchBackends {
		b.Run(backend, func(b *testing.B) {
			jobs := benchCoords(b, 10000)
			const hours = 48
			if b.N > hours {
				b.Skip("the coordinators' window is 48 hours")
			}
			t0 := time.Date(2010, 1, 1, 0, 0, 0, 0, time.UTC)
			w := benchWorld(b, backend, t0.Add(-time.Hour))
			distinctHourlyJobs(b, w, jobs, t0.Add(-5*time.Minute))
			// The collector's budget as gozie server sets it.
			defer gcbudget.Start(context.Background(), gcbudget.DefaultMB<<20)()
			runtime.GC()
			resetPeakRSS(b)
			w.start()
			var peak memSample
			cpu0 := cpuSeconds()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				hour := t0.Add(time.Duration(i) * time.Hour)
				w.advance(55 * time.Minute) // this hour's actions ahead; the last hour's found
				peak = peak.max(sampleMem())
				w.advance(5 * time.Minute) // the checks at the hour miss
				peak = peak.max(sampleMem())
				w.touch(w.logURI(hour) + "/_SUCCESS")
			}
			w.advance(55 * time.Minute) // the last hour's retries find their flags
			b.StopTimer()
			cpu := cpuSeconds() - cpu0
			end := sampleMem()
			peak = peak.max(end)
			writeHeapProfile(b)
			if n := w.countActionsIn(store.CoordActionReady); n < jobs*b.N {
				b.Fatalf("%d READY actions after %d hours, want at least %d", n, b.N, jobs*b.N)
			}
			b.ReportMetric(procStatusMB(b, "VmHWM"), "peak-RSS-MB")
			b.ReportMetric(procStatusMB(b, "VmRSS"), "end-RSS-MB")
			b.ReportMetric(float64(peak.heapInuse)/(1<<20), "peak-heap-MB")
			b.ReportMetric(float64(end.heapInuse)/(1<<20), "end-heap-MB")
			b.ReportMetric(float64(peak.goroutines), "peak-goroutines")
			b.ReportMetric(cpu/float64(b.N), "CPU-s/sim-hour")
			b.ReportMetric(float64(jobs), "coordinators")
		})
	}
}

// benchCoords is GOZIE_BENCH_COORDS, or def.
func benchCoords(b *testing.B, def int) int {
	b.Helper()
	s := os.Getenv("GOZIE_BENCH_COORDS")
	if s == "" {
		return def
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 {
		b.Fatalf("GOZIE_BENCH_COORDS=%q is not a positive number", s)
	}
	return n
}

// distinctHourlyJobs stores jobs hourly coordinators with an input dataset
// and concurrency 0, each prepared from its own configuration, with their
// first materialization due at due.
func distinctHourlyJobs(b *testing.B, w *world, jobs int, due time.Time) {
	b.Helper()
	app := w.app("memory", coordXML("${coord:hours(1)}", "2010-01-01T00:00Z", "2010-01-03T00:00Z",
		"<concurrency>0</concurrency><throttle>100</throttle>", true))
	for i := 0; i < jobs; i += 500 {
		rows := make([]store.CoordJob, 0, 500)
		for j := i; j < min(i+500, jobs); j++ {
			p, err := w.coords.Prepare(bg, w.props(app, "team", fmt.Sprintf("team-%05d", j)), SubmitOptions{})
			if err != nil {
				b.Fatal(err)
			}
			row := p.Row()
			row.ID = fmt.Sprintf("%07d-100101000000000-mem-C", j)
			rows = append(rows, row)
		}
		err := w.store.Tx(bg, func(x store.Tx) error {
			for k := range rows {
				if err := x.InsertCoordJob(bg, &rows[k]); err != nil {
					return err
				}
				if err := x.Schedule(bg, KindMaterialize, rows[k].ID, due, ""); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
	}
}

// writeHeapProfile writes the heap profile GOZIE_BENCH_HEAPPROFILE names, if
// it names one, after a collection (so that it shows what is live now).
func writeHeapProfile(b *testing.B) {
	b.Helper()
	path := os.Getenv("GOZIE_BENCH_HEAPPROFILE")
	if path == "" {
		return
	}
	runtime.GC()
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	if err := pprof.WriteHeapProfile(f); err != nil {
		b.Fatalf("writing the heap profile %s: %v", path, err)
	}
}

// memSample is the Go runtime's view of the process at one moment.
type memSample struct {
	heapInuse  uint64
	goroutines int
}

func sampleMem() memSample {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return memSample{heapInuse: m.HeapInuse, goroutines: runtime.NumGoroutine()}
}

func (s memSample) max(o memSample) memSample {
	return memSample{heapInuse: max(s.heapInuse, o.heapInuse), goroutines: max(s.goroutines, o.goroutines)}
}

// resetPeakRSS resets the kernel's peak resident set size of this process
// (VmHWM), so that the peak reported is the measured part's.
func resetPeakRSS(b *testing.B) {
	b.Helper()
	if err := os.WriteFile("/proc/self/clear_refs", []byte("5"), 0); err != nil {
		b.Logf("the peak RSS cannot be reset (%v): it includes the setup", err)
	}
}

// procStatusMB reads a size field (in kB) of /proc/self/status, in MiB.
func procStatusMB(b *testing.B, field string) float64 {
	b.Helper()
	mb, err := procstat.StatusMB(field)
	if err != nil {
		b.Fatal(err)
	}
	return mb
}

// cpuSeconds is the CPU time (user + system) this process has used.
func cpuSeconds() float64 {
	d, _ := procstat.ProcessCPU()
	return d.Seconds()
}
