package main

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// settings are the environment variables the offline commands read
// (contract §7); flags override them.
type settings struct {
	Reflection bool
	MaxRetries int
	Timeout    time.Duration
	DataFile   string
	problems   []string
}

// environment reads the variables ask and eval honour, collecting every bad
// value instead of stopping at the first.
func environment(getenv func(string) string) settings {
	s := settings{Reflection: true, MaxRetries: 2, Timeout: 30 * time.Second, DataFile: getenv("DATA_FILE")}
	if v := getenv("REFLECTION_ENABLED"); v != "" {
		b, err := strconv.ParseBool(v)
		s.check(err, "REFLECTION_ENABLED=%q is not true or false", v)
		s.Reflection = b || err != nil
	}
	if v := getenv("MAX_RETRY_COUNT"); v != "" {
		n, err := strconv.Atoi(v)
		s.check(err, "MAX_RETRY_COUNT=%q is not a whole number", v)
		if err == nil && (n < 0 || n > 5) {
			s.problems = append(s.problems, fmt.Sprintf("MAX_RETRY_COUNT=%d is outside 0..5", n))
		}
		if err == nil {
			s.MaxRetries = n
		}
	}
	if v := getenv("TURN_TIMEOUT"); v != "" {
		d, err := time.ParseDuration(v)
		s.check(err, "TURN_TIMEOUT=%q is not a duration like 30s", v)
		if err == nil && d <= 0 {
			s.problems = append(s.problems, fmt.Sprintf("TURN_TIMEOUT=%q must be positive", v))
		}
		if err == nil && d > 0 {
			s.Timeout = d
		}
	}
	return s
}

func (s *settings) check(err error, format string, args ...any) {
	if err != nil {
		s.problems = append(s.problems, fmt.Sprintf(format, args...))
	}
}

// err reports every bad variable at once.
func (s settings) err() error {
	if len(s.problems) == 0 {
		return nil
	}
	return usagef("bad environment: %s", strings.Join(s.problems, "; "))
}
