package launcher

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"time"
)

// callbackPause is the pause after the first failed callback; it doubles
// after each further failure.
const callbackPause = 250 * time.Millisecond

// notify calls the callback URL with the final status appended (the URL ends
// in "status="), retrying failures with a doubling pause until it succeeds or
// ctx ends. The callback is only a hint that makes the server check the run
// at once; its failure fails nothing, which is why the error is only logged
// by the caller.
func notify(ctx context.Context, client *http.Client, url, status string) error {
	pause := callbackPause
	var last error
	for attempt := 1; ; attempt++ {
		last = callOnce(ctx, client, url+status)
		if last == nil {
			return nil
		}
		t := time.NewTimer(pause)
		select {
		case <-ctx.Done():
			t.Stop()
			return fmt.Errorf("calling back after %d attempts: %w", attempt, last)
		case <-t.C:
		}
		pause *= 2
	}
}

func callOnce(ctx context.Context, client *http.Client, url string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return fmt.Errorf("callback URL: %w", err)
	}
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("callback answered %s", resp.Status)
	}
	return nil
}
