package hive2

// Crash stops the executor as if its process died: runs stop writing
// their records at once and their sockets close under them, with no
// CancelOperation and no release of the records.
func (e *Executor) Crash() {
	e.mu.Lock()
	e.closed = true
	runs := make([]*activeRun, 0, len(e.runs))
	for _, ar := range e.runs {
		runs = append(runs, ar)
	}
	e.mu.Unlock()
	for _, ar := range runs {
		// Under the record lock, so that no record write can slip in
		// between the sockets closing and the run learning it is dead.
		ar.mu.Lock()
		ar.conn.dialer.closeAll()
		ar.markLost()
		ar.mu.Unlock()
	}
	e.wg.Wait()
}
