package agent

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/erleah/erleah-agent/search"
	"github.com/erleah/erleah-agent/search/lexical"
)

// SearchUnavailable is what the attendee reads when no search could run.
const SearchUnavailable = "Sorry, I can't search the programme just now. Please try again in a moment."

// Apology is the answer when no model could produce one.
const Apology = "Sorry, I couldn't put an answer together just now. Please try asking again in a moment."

// respond writes the answer from what the turn retrieved.
func (t *turn) respond(ctx context.Context) error {
	t.progress(StepRespond, "Writing the answer…")
	t.st.Talks = t.talks(AnswerResults(t.st.QueryResults)[search.Speakers]) // once: a regenerated answer reads them too
	t.st.Companions = t.companions(ctx)
	return t.answer(ctx, t.respondInput())
}

// answer streams an answer through the citation guard from the first model
// that gives one: the model, then the fallback model, then an apology. When
// a failed try had already streamed text, a Reset event tells observers to
// discard it; its cause goes to the trace, never to the attendee.
func (t *turn) answer(ctx context.Context, in *RespondInput) error {
	for _, a := range t.c.attempts(StepRespond) {
		g, err := t.answerWith(ctx, a, in)
		if err == nil {
			t.finish(g, a.src)
			return nil
		}
		if ctxErr := ctx.Err(); ctxErr != nil {
			return ctxErr
		}
		if g.text.Len() > 0 {
			t.emit(Reset{Reason: "the answer stopped part-way; another one follows"})
		}
	}
	g := newCiteGuard(nil, t.chunk)
	g.write(Apology)
	t.finish(g, FromMechanical)
	return nil
}

func (t *turn) answerWith(ctx context.Context, a attempt, in *RespondInput) (*citeGuard, error) {
	g := newCiteGuard(t.st.Retrieved(), t.chunk)
	comp, err := t.c.do(ctx, a, Call{Step: StepRespond, Respond: in, Stream: g.write})
	if err != nil {
		return g, err
	}
	if !g.streamed {
		g.write(comp.Text)
	}
	g.flush()
	if strings.TrimSpace(g.text.String()) == "" {
		return g, errors.New("the model returned an empty answer")
	}
	return g, nil
}

func (t *turn) chunk(s string) { t.emit(Chunk{Text: s}) }

// WhatAreYouLookingFor is the reply to a question that names nothing to
// look for, at a conference whose programme has no tracks to give as
// examples (see lookingFor).
const WhatAreYouLookingFor = "What are you looking for? Tell me a topic, a speaker, a company or a time, " +
	"for example “what's on tomorrow morning?” or “who's exhibiting?”.\n"

// lookingFor asks what the attendee is looking for, with examples from the
// conference's own programme: its two tracks with the most talks,
// workshops and panels.
func lookingFor(sessions []search.Result) string {
	n := map[string]int{}
	var tracks []string
	for _, r := range sessions {
		if r.Session == nil || r.Session.Track == "" || r.Session.Format == "" || r.Session.Format == "other" || r.Session.Format == "keynote" {
			continue
		}
		if n[r.Session.Track] == 0 {
			tracks = append(tracks, r.Session.Track)
		}
		n[r.Session.Track]++
	}
	if len(tracks) < 2 {
		return WhatAreYouLookingFor
	}
	slices.SortStableFunc(tracks, func(a, b string) int { return n[b] - n[a] })
	return fmt.Sprintf("What are you looking for? Tell me a topic, a speaker, a company or a time, "+
		"for example “talks on %s tomorrow morning” or “who works on %s?”.\n", tracks[0], tracks[1])
}

func (t *turn) finish(g *citeGuard, src Source) {
	g.flush()
	t.st.ResponseText = g.text.String()
	t.st.Citations = g.cited
	t.st.DroppedCitations = g.dropped
	t.st.RemovedURLs = g.removed
	t.st.ResponseSource = src
}

func (t *turn) respondInput() *RespondInput {
	in := &RespondInput{
		Message: t.st.Message, Reading: t.st.Reading, Language: t.st.Language, Topic: t.st.Topic, Filter: t.st.Filter, Outside: t.st.Outside,
		Conference: t.st.Conference, History: t.st.History, FollowUp: t.st.FollowUp, Intent: t.st.Intent,
		Results: AnswerResults(t.st.QueryResults), Tables: t.st.TableStatus,
		Queries: cloneQueries(t.st.Tried), Calibration: t.calibration(), Lexicon: t.lexicon(),
		FirstPlan: cloneQueries(t.st.OriginalPlannedQueries), Talks: t.st.Talks, AskedAt: t.st.AskedAt, Companions: t.st.Companions,
	}
	return in
}

// talks looks up the sessions of the speakers found, by speaker.
func (t *turn) talks(speakers []search.Result) map[string][]search.Result {
	out := map[string][]search.Result{}
	for _, p := range speakers {
		if len(p.Talks) > 0 {
			out[p.Key()] = t.notCited(t.agent.search.Items(t.st.Conference.ID, p.Talks))
		}
	}
	return out
}

// companions looks up exhibitors for a question first searched among talks
// alone ("rfid", "any talks on ebook licensing?"), by the texts it was
// searched with: the expo may answer it too. Not for a question with a
// time or place or one that asks when or where (exhibitors have neither),
// one that names an entity, or one whose turn searched exhibitors already.
// A failed lookup leaves the answer as it was.
func (t *turn) companions(ctx context.Context) []search.Result {
	st := t.st
	if st.Filter != nil || st.FollowUp != nil || len(st.QueryResults[search.Exhibitors]) > 0 || len(t.mentions()) > 0 || lexical.AsksSchedule(t.asked()) ||
		slices.ContainsFunc(st.OriginalPlannedQueries, func(q search.Query) bool { return q.Table != search.Sessions }) {
		return nil
	}
	var out []search.Result
	searched := map[string]bool{}
	for _, q := range st.OriginalPlannedQueries {
		if searched[q.Text] {
			continue // the same words in the other mode
		}
		searched[q.Text] = true
		rs, err := t.agent.search.Search(search.TryOnce(ctx), st.Conference.ID, search.Query{Table: search.Exhibitors, Mode: search.Faceted, Text: q.Text, Limit: companionLimit})
		if err != nil {
			return nil
		}
		out = mergeResults(out, rs)
	}
	return out[:min(len(out), companionLimit)]
}

// companionLimit is how many exhibitors a question is looked up among.
const companionLimit = 5
