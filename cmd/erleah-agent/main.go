// Command erleah-agent answers conference attendees' questions: one turn
// from the command line (ask), an evaluation of the reflective agent against
// the mechanical one (eval), and later the HTTP service (serve).
//
// main is tiny: run wires everything explicitly and turns errors into exit
// codes (0 success, 1 runtime failure, 2 usage error) and one readable
// message on stderr, never a stack trace.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	_ "time/tzdata" // conference time zones resolve on machines without tzdata
)

func main() {
	env := environ()
	if err := dotEnv(".env", env); err != nil {
		fmt.Fprintf(os.Stderr, "erleah-agent: %v\n", err)
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr, env)
	stop()
	os.Exit(code)
}

// usageError is a mistake in how the command was called: exit code 2.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error { return &usageError{fmt.Sprintf(format, args...)} }

const usage = `usage: erleah-agent <command> [flags]

commands:
  ask [flags] "question"   answer one question, offline by default
  eval [flags]             measure reflection against mechanical relaxation
  serve                    run the HTTP service, configured by the environment
  directus setup|check|import   prepare a Directus instance, check it, load a bundle into it
  index --check|--rebuild  compare the shared Weaviate index with the conferences, or repair it
  version                  print version and build information
  health [--url URL]       exit 0 when the service answers 200 (for container health checks)

Run "erleah-agent <command> -h" for a command's flags.
`

// run executes one command and returns the process exit code. A panic is
// reported as one line, never as a stack trace.
func run(ctx context.Context, args []string, stdout, stderr io.Writer, env map[string]string) (code int) {
	defer func() {
		if p := recover(); p != nil {
			fmt.Fprintf(stderr, "erleah-agent: internal error: %v\n", p)
			code = 1
		}
	}()
	err := dispatch(ctx, args, stdout, stderr, env)
	if err == nil {
		return 0
	}
	var ue *usageError
	switch {
	case errors.Is(err, errHelp):
		return 0
	case errors.As(err, &ue):
		fmt.Fprintf(stderr, "erleah-agent: %s\n", oneLine(err.Error()))
		return 2
	default:
		fmt.Fprintf(stderr, "erleah-agent: %s\n", err)
		return 1
	}
}

// onListen, when set (by tests), learns the address serve listens on.
var onListen func(addr string)

// errHelp ends a command that printed its help on request.
var errHelp = errors.New("help requested")

func dispatch(ctx context.Context, args []string, stdout, stderr io.Writer, environ map[string]string) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return usagef("no command given")
	}
	switch args[0] {
	case "ask", "eval", "serve", "directus", "index":
		cfg, err := loadConfig(environ)
		if err != nil {
			return err
		}
		switch args[0] {
		case "ask":
			return cmdAsk(ctx, args[1:], stdout, stderr, cfg)
		case "eval":
			return cmdEval(ctx, args[1:], stdout, stderr, cfg)
		case "directus":
			return cmdDirectus(ctx, args[1:], stdout, stderr, cfg)
		case "index":
			return cmdIndex(ctx, args[1:], stdout, stderr, cfg)
		}
		return cmdServe(ctx, args[1:], stderr, cfg, onListen)
	case "version":
		return cmdVersion(stdout)
	case "health":
		return cmdHealth(ctx, args[1:], stdout, stderr)
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return nil
	}
	return usagef("unknown command %q (want ask, eval, serve, directus, index or version)", args[0])
}

// environ is the process environment as a map, read once here.
func environ() map[string]string {
	m := map[string]string{}
	for _, kv := range os.Environ() {
		if k, v, ok := strings.Cut(kv, "="); ok {
			m[k] = v
		}
	}
	return m
}

// dotEnv adds the settings of a .env file (KEY=VALUE lines, # comments,
// optional quotes) to env, which wins: a variable set in the process's
// environment is never overridden, and an empty value in the file counts
// as unset. A missing file is fine; a malformed line is an error naming it.
func dotEnv(path string, env map[string]string) error {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("read %s: %w", path, err)
	}
	for n, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(line), "export "))
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		if !ok || k == "" || strings.ContainsAny(k, " \t") {
			return fmt.Errorf("%s line %d: want KEY=VALUE, got %q", path, n+1, line)
		}
		if uq, err := strconv.Unquote(v); err == nil && len(v) >= 2 && (v[0] == '"' || v[0] == '\'') {
			v = uq
		} else if len(v) >= 2 && v[0] == '\'' && v[len(v)-1] == '\'' {
			v = v[1 : len(v)-1]
		}
		if _, set := env[k]; !set && v != "" {
			env[k] = v
		}
	}
	return nil
}

// oneLine folds a multi-line message for a usage error.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
