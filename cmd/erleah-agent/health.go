package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"time"
)

// cmdHealth probes a running service, for container health checks where no
// curl exists: exit 0 on 200, 1 otherwise, within 3 seconds.
func cmdHealth(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("health", stderr)
	url := fs.String("url", "http://127.0.0.1:8080/healthz", "`URL` to probe")
	if _, err := parseArgs(fs, args); err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, *url, nil)
	if err != nil {
		return usagef("--url %q: %v", *url, err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("health: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("health: %s answered %d", *url, resp.StatusCode)
	}
	fmt.Fprintln(stdout, "ok")
	return nil
}
