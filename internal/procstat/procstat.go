// Package procstat reads what gozie's benchmarks report about their own
// process and the machine it shares: CPU time and resident memory, from
// Linux's getrusage, /proc/stat and /proc/self/status.
package procstat

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// ProcessCPU is the user and system CPU time this process has used so far.
func ProcessCPU() (time.Duration, error) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, fmt.Errorf("reading the process's CPU time: %w", err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), nil
}

// MachineCPU is the CPU time every core of the machine has spent working
// so far (user, nice, system, interrupts): this process and whatever shares
// the machine with it, a database server included.
func MachineCPU() (time.Duration, error) {
	data, err := os.ReadFile("/proc/stat")
	if err != nil {
		return 0, fmt.Errorf("reading the machine's CPU time: %w", err)
	}
	return machineCPU(string(data))
}

func machineCPU(stat string) (time.Duration, error) {
	line, _, _ := strings.Cut(stat, "\n")
	f := strings.Fields(line) // cpu user nice system idle iowait irq softirq ...
	if len(f) < 8 || f[0] != "cpu" {
		return 0, fmt.Errorf("unexpected /proc/stat: %q", line)
	}
	var ticks int64
	for _, i := range []int{1, 2, 3, 6, 7} {
		n, err := strconv.ParseInt(f[i], 10, 64)
		if err != nil {
			return 0, fmt.Errorf("unexpected /proc/stat: %q", line)
		}
		ticks += n
	}
	return time.Duration(ticks) * (time.Second / clockTicks), nil
}

// clockTicks is the kernel's USER_HZ, the unit of /proc/stat: 100 on every
// Linux architecture gozie runs on.
const clockTicks = 100

// StatusMB reads a size field of /proc/self/status (VmRSS, VmHWM, ...) in
// MiB.
func StatusMB(field string) (float64, error) {
	raw, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0, err
	}
	return statusMB(string(raw), field)
}

func statusMB(status, field string) (float64, error) {
	for _, l := range strings.Split(status, "\n") {
		if v, ok := strings.CutPrefix(l, field+":"); ok {
			kb, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 64)
			if err != nil {
				return 0, fmt.Errorf("/proc/self/status %s: %w", field, err)
			}
			return kb / 1024, nil
		}
	}
	return 0, errors.New("/proc/self/status has no " + field)
}
