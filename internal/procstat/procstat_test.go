package procstat

import (
	"testing"
	"time"
)

func TestMachineCPUCountsBusyTicks(t *testing.T) {
	// user nice system idle iowait irq softirq steal: idle and iowait are
	// not work.
	got, err := machineCPU("cpu  100 20 30 5000 700 4 6 9\ncpu0 1 2 3 4 5 6 7 8\n")
	if err != nil || got != 160*10*time.Millisecond {
		t.Errorf("machineCPU = %v, %v; want 1.6s", got, err)
	}
	if _, err := machineCPU("intr 1 2 3\n"); err == nil {
		t.Error("a /proc/stat without its cpu line was read")
	}
}

func TestStatusMB(t *testing.T) {
	status := "Name:\tgozie\nVmHWM:\t  204800 kB\nVmRSS:\t  102400 kB\n"
	if got, err := statusMB(status, "VmRSS"); err != nil || got != 100 {
		t.Errorf("VmRSS = %v, %v; want 100", got, err)
	}
	if _, err := statusMB(status, "VmSwap"); err == nil {
		t.Error("a missing field was read")
	}
	if mb, err := StatusMB("VmRSS"); err != nil || mb <= 0 {
		t.Errorf("this process's VmRSS = %v, %v", mb, err)
	}
	if d, err := ProcessCPU(); err != nil || d <= 0 {
		t.Errorf("ProcessCPU = %v, %v", d, err)
	}
}
