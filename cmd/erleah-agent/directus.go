package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/erleah/erleah-agent/directus"
	"github.com/erleah/erleah-agent/migrations"
	"github.com/erleah/erleah-agent/provision"
)

const directusUsage = `usage: erleah-agent directus <setup|check|import> [flags]

  setup [--webhook-url URL] [--agent-email EMAIL] [--secret-from-env] [--rotate-token]
        apply the schema, create the webhook Flow, the agent's user, the guard Flow and the attendees'
        role erleah-attendee for the chat widget's users (DIRECTUS_TOKEN must be an admin's)
  check  list missing or mistyped collections and fields, a missing guard Flow and a missing or changed
         attendee role; exit 1 if any
  import --data FILE
        write a conference bundle into Directus, idempotently
`

func cmdDirectus(ctx context.Context, args []string, stdout, stderr io.Writer, cfg config) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, directusUsage)
		return usagef("directus: no subcommand (want setup, check or import)")
	}
	if cfg.DirectusURL == "" || cfg.DirectusToken == "" {
		return usagef("directus %s needs DIRECTUS_URL and DIRECTUS_TOKEN", args[0])
	}
	c, err := cfg.directusClient()
	if err != nil {
		return err
	}
	switch args[0] {
	case "setup":
		return directusSetup(ctx, c, args[1:], stdout, stderr, cfg)
	case "check":
		return directusCheck(ctx, c, stdout)
	case "import":
		return directusImport(ctx, c, args[1:], stdout, stderr)
	}
	return usagef("directus: unknown subcommand %q (want setup, check or import)", args[0])
}

func directusSetup(ctx context.Context, c *directus.Client, args []string, stdout, stderr io.Writer, cfg config) error {
	fs := newFlagSet("directus setup", stderr)
	hook := fs.String("webhook-url", cfg.publicURL()+"/v1/webhooks/directus", "`URL` the Flow calls")
	email := fs.String("agent-email", "erleah-agent@example.com", "`email` of the agent's Directus user")
	fromEnv := fs.Bool("secret-from-env", false, "let the Flow read {{$env.AGENT_WEBHOOK_SECRET}} (needs FLOWS_ENV_ALLOW_LIST=AGENT_WEBHOOK_SECRET) instead of storing WEBHOOK_SECRET")
	rotate := fs.Bool("rotate-token", false, "give the agent's user a new token (printed once)")
	if pos, err := parseArgs(fs, args); err != nil || len(pos) > 0 {
		return argsError(err, pos)
	}
	if err := c.Ping(ctx); err != nil {
		return fmt.Errorf("directus setup: %s does not answer: %w", cfg.DirectusURL, err)
	}
	schema, err := provision.ApplySchema(ctx, c, migrations.DirectusSchema)
	if err != nil {
		return err
	}
	report(stdout, "schema", schema.Changed, "applied (merge mode; other collections untouched)", "already up to date")
	if schema.Forced != "" {
		fmt.Fprintf(stdout, "  note: version/vendor check overridden: %s\n", schema.Forced)
	}
	if !schema.Checked {
		if problems, err := provision.Check(ctx, c, migrations.DirectusSchema); err != nil || len(problems) > 0 {
			return checkError(problems, err)
		}
	}
	n, err := provision.Flow(ctx, c, provision.FlowOptions{URL: *hook, Secret: string(cfg.WebhookSecret), SecretFromEnv: *fromEnv})
	if err != nil {
		return err
	}
	report(stdout, "flow", n > 0, fmt.Sprintf("%q → %s (%d changes)", provision.FlowName, *hook, n), "already up to date")
	access, err := setupAccess(ctx, c, stdout, *email, *rotate)
	if err != nil {
		return err
	}
	if !schema.Changed && n == 0 && access == 0 {
		fmt.Fprintln(stdout, "nothing changed")
	}
	return nil
}

// setupAccess makes the agent's user, the guard Flow and the attendees'
// role, reports each and returns how many changes they took. A new agent
// token is printed once.
func setupAccess(ctx context.Context, c *directus.Client, stdout io.Writer, email string, rotate bool) (int, error) {
	agent, err := provision.AgentUser(ctx, c, email, rotate)
	if err != nil {
		return 0, err
	}
	report(stdout, "agent user", agent.Changes > 0, fmt.Sprintf("%s with role %s (%d changes)", email, provision.AgentName, agent.Changes), "already up to date")
	g, err := provision.Guard(ctx, c, agent.RoleID)
	if err != nil {
		return 0, err
	}
	report(stdout, "guard flow", g > 0, fmt.Sprintf("%q: only admins and role %s create assistant messages or set reply_to/id (%d changes)",
		provision.GuardName, provision.AgentName, g), "already up to date")
	att, err := provision.Attendee(ctx, c)
	if err != nil {
		return 0, err
	}
	report(stdout, "attendee role", att.Changes > 0, fmt.Sprintf("%s (id %s) for the chat widget's users: %s (%d changes)",
		provision.AttendeeName, att.RoleID, provision.AttendeeGrants(), att.Changes), "already up to date")
	if agent.Token != "" {
		fmt.Fprintf(stdout, "\nThe agent's token, shown only now: set DIRECTUS_TOKEN=%s for serve.\n", agent.Token)
	}
	return agent.Changes + g + att.Changes, nil
}

func report(w io.Writer, what string, changed bool, did, same string) {
	if changed {
		fmt.Fprintf(w, "%s: %s\n", what, did)
		return
	}
	fmt.Fprintf(w, "%s: %s\n", what, same)
}

func argsError(err error, pos []string) error {
	if err != nil {
		return err
	}
	return usagef("unexpected arguments: %s", strings.Join(pos, " "))
}

func directusCheck(ctx context.Context, c *directus.Client, stdout io.Writer) error {
	problems, err := checkAll(ctx, c)
	if err != nil || len(problems) > 0 {
		return checkError(problems, err)
	}
	cols, _ := provision.Collections(migrations.DirectusSchema)
	fmt.Fprintf(stdout, "ok: %s present with the fields the agent relies on; the guard Flow %q in place; the role %q with %s\n",
		strings.Join(cols, ", "), provision.GuardName, provision.AttendeeName, provision.AttendeeGrants())
	return nil
}

// checkAll gathers the problems of the schema, the guard Flow and the
// attendees' role.
func checkAll(ctx context.Context, c *directus.Client) ([]provision.Problem, error) {
	schema := func(ctx context.Context, c *directus.Client) ([]provision.Problem, error) {
		return provision.Check(ctx, c, migrations.DirectusSchema)
	}
	var all []provision.Problem
	for _, check := range []func(context.Context, *directus.Client) ([]provision.Problem, error){schema, provision.CheckGuard, provision.CheckAttendee} {
		problems, err := check(ctx, c)
		if err != nil {
			return nil, err
		}
		all = append(all, problems...)
	}
	return all, nil
}

func checkError(problems []provision.Problem, err error) error {
	var de *directus.Error
	switch {
	case errors.As(err, &de) && (de.Status == 401 || de.Status == 403):
		return fmt.Errorf("directus check: Directus refused to show its schema (HTTP %d): reading the schema needs an admin "+
			"token; set DIRECTUS_TOKEN to an admin's static token (scripts/directus/start.sh prints DIRECTUS_ADMIN_TOKEN), not the agent's", de.Status)
	case err != nil:
		return fmt.Errorf("directus check: %w", err)
	}
	lines := make([]string, len(problems))
	for i, p := range problems {
		lines[i] = "  " + p.String()
	}
	return fmt.Errorf("directus check: %d problem(s); run erleah-agent directus setup:\n%s", len(problems), strings.Join(lines, "\n"))
}

func directusImport(ctx context.Context, c *directus.Client, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("directus import", stderr)
	data := fs.String("data", "", "conference bundle `file` (default: the demo bundle)")
	if pos, err := parseArgs(fs, args); err != nil || len(pos) > 0 {
		return argsError(err, pos)
	}
	b, err := loadBundle(*data)
	if err != nil {
		return err
	}
	res, err := provision.Import(ctx, c, b)
	if err != nil {
		return err
	}
	for _, coll := range []string{"conferences", "speakers", "sessions", "exhibitors"} {
		fmt.Fprintf(stdout, "%-12s created %d, updated %d, unchanged %d\n", coll, res.Created[coll], res.Updated[coll], res.Unchanged[coll])
	}
	if res.Changes() == 0 {
		fmt.Fprintln(stdout, "nothing changed")
	}
	return nil
}
