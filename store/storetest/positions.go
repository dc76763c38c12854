package storetest

import (
	"fmt"
	"slices"
	"testing"

	"github.com/gozie/gozie/store"
)

// testStreamPositions: a stream's position is unknown until recorded,
// then the last one recorded; streams are apart.
func testStreamPositions(t *testing.T, open Opener) {
	s := open(t)
	tx(t, s, func(x store.Tx) error {
		_, err := x.GetStreamPosition(ctx, "hdfs://nn")
		wantErr(t, err, store.ErrNotFound)
		return nil
	})
	for _, pos := range []int64{41, 7} {
		tx(t, s, func(x store.Tx) error { return x.SetStreamPosition(ctx, "hdfs://nn", pos) })
	}
	tx(t, s, func(x store.Tx) error { return x.SetStreamPosition(ctx, "hdfs://other", 99) })
	tx(t, s, func(x store.Tx) error {
		if pos, err := x.GetStreamPosition(ctx, "hdfs://nn"); err != nil || pos != 7 {
			t.Errorf("position %d, %v; want 7, the last recorded", pos, err)
		}
		return nil
	})
}

// testListWaitedURIs: of the URIs asked about, those some action waits
// on, each once however many actions wait on it.
func testListWaitedURIs(t *testing.T, open Opener) {
	s := open(t)
	const a, b = "hdfs://nn/data/a/_SUCCESS", "hdfs://nn/data/b"
	tx(t, s, func(x store.Tx) error {
		j := store.CoordJob{ID: "C9", Status: store.JobRunning, ExecutionOrder: "FIFO", CreatedTime: t0}
		if err := x.InsertCoordJob(ctx, &j); err != nil {
			return err
		}
		for n := 1; n <= 2; n++ {
			a := store.CoordAction{ID: fmt.Sprintf("C9@%d", n), JobID: "C9", ActionNumber: n,
				Status: store.CoordActionWaiting, NominalTime: t0, CreatedTime: t0, LastModified: t0}
			if err := x.InsertCoordAction(ctx, &a); err != nil {
				return err
			}
		}
		if err := x.SetCoordWaits(ctx, "C9@1", []string{a, b}); err != nil {
			return err
		}
		return x.SetCoordWaits(ctx, "C9@2", []string{a})
	})
	many := []string{"hdfs://nn/other", a}
	for i := range 1200 { // more than one statement's worth
		many = append(many, fmt.Sprintf("hdfs://nn/x/%d", i))
	}
	many = append(many, b, a)
	tx(t, s, func(x store.Tx) error {
		got, err := x.ListWaitedURIs(ctx, many)
		slices.Sort(got)
		if err != nil || !slices.Equal(got, []string{a, b}) {
			t.Errorf("waited URIs %v, %v; want %s and %s once each", got, err, a, b)
		}
		return nil
	})
}
