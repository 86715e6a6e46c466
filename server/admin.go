package server

import (
	"context"
	"errors"
	"net/http"
	"slices"

	"github.com/erleah/erleah-agent/agent"
	"github.com/erleah/erleah-agent/memory"
	"github.com/erleah/erleah-agent/registry"
)

// adminRoutes serves /v1/admin: prompts, models and traces. Without an API
// token the admin API is disabled.
func (s *Server) adminRoutes() {
	routes := map[string]http.HandlerFunc{
		"GET /v1/admin/prompts":               s.listPrompts,
		"GET /v1/admin/prompts/{step}":        s.getPrompt,
		"PUT /v1/admin/prompts/{step}":        s.setPrompt,
		"POST /v1/admin/prompts/{step}/reset": s.resetPrompt,
		"GET /v1/admin/models":                s.listModels,
		"GET /v1/admin/models/{step}":         s.getModel,
		"PUT /v1/admin/models/{step}":         s.setModel,
		"POST /v1/admin/models/{step}/reset":  s.resetModel,
		"GET /v1/admin/traces":                s.listTraces,
		"GET /v1/admin/traces/{id}":           s.getTrace,
		"GET /v1/admin/memory":                s.listMemory,
		"DELETE /v1/admin/memory":             s.clearMemory,
	}
	for pattern, h := range routes {
		s.handle(pattern, s.admin(h))
	}
}

// admin requires the API token (an address sending wrong ones is locked
// out for a while) and is rate limited per address like the stream; with
// no token configured the API is off.
func (s *Server) admin(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if s.opts.APIToken == "" {
			writeError(w, http.StatusNotFound, "the admin API is disabled; set API_TOKEN to enable it")
			return
		}
		s.auth(s.limited(h))(w, r)
	}
}

// step reads the {step} path value; unknown steps are 404.
func step(w http.ResponseWriter, r *http.Request) (agent.Step, bool) {
	st := agent.Step(r.PathValue("step"))
	if !slices.Contains(agent.ModelSteps, st) {
		writeError(w, http.StatusNotFound, "unknown step "+string(st))
		return "", false
	}
	return st, true
}

func (s *Server) listPrompts(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, map[string]any{"prompts": s.opts.Prompts.List()})
}

func (s *Server) getPrompt(w http.ResponseWriter, r *http.Request) {
	st, ok := step(w, r)
	if !ok {
		return
	}
	p, err := s.opts.Prompts.Get(st)
	if err != nil {
		writeError(w, http.StatusNotFound, err.Error())
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"prompt": p, "history": s.opts.Prompts.History(st)})
}

func (s *Server) setPrompt(w http.ResponseWriter, r *http.Request) {
	st, ok := step(w, r)
	var body struct {
		Text string `json:"text"`
	}
	if !ok || !decodeBody(w, r, &body) {
		return
	}
	p, err := s.opts.Prompts.Set(st, body.Text)
	s.changed(w, r, "prompt", st, p, err)
}

func (s *Server) resetPrompt(w http.ResponseWriter, r *http.Request) {
	if st, ok := step(w, r); ok {
		p, err := s.opts.Prompts.Reset(st)
		s.changed(w, r, "prompt", st, p, err)
	}
}

func (s *Server) listModels(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, map[string]any{"models": s.opts.Models.Models()})
}

func (s *Server) getModel(w http.ResponseWriter, r *http.Request) {
	if st, ok := step(w, r); ok {
		m, err := s.opts.Models.Model(st)
		if err != nil {
			writeError(w, http.StatusNotFound, err.Error())
			return
		}
		writeJSON(w, http.StatusOK, map[string]any{"model": m})
	}
}

func (s *Server) setModel(w http.ResponseWriter, r *http.Request) {
	st, ok := step(w, r)
	var body struct {
		Model string `json:"model"`
	}
	if !ok || !decodeBody(w, r, &body) {
		return
	}
	m, err := s.opts.Models.SetModel(st, body.Model)
	s.changed(w, r, "model", st, m, err)
}

func (s *Server) resetModel(w http.ResponseWriter, r *http.Request) {
	if st, ok := step(w, r); ok {
		m, err := s.opts.Models.ResetModel(st)
		s.changed(w, r, "model", st, m, err)
	}
}

// changed answers a registry change: 200 with the new entry, 422 when it
// was rejected (nothing changed).
func (s *Server) changed(w http.ResponseWriter, r *http.Request, what string, st agent.Step, e registry.Entry[string], err error) {
	if err != nil {
		code := http.StatusUnprocessableEntity
		if errors.Is(err, registry.ErrUnknownKey) {
			code = http.StatusNotFound
		}
		writeError(w, code, err.Error())
		return
	}
	s.log.Info("admin change", "trace_id", traceID(r.Context()), "what", what, "step", st, "version", e.Version)
	writeJSON(w, http.StatusOK, map[string]any{what: e})
}

func (s *Server) listTraces(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, map[string]any{"traces": s.opts.Traces.List()})
}

func (s *Server) getTrace(w http.ResponseWriter, r *http.Request) {
	tr, ok := s.opts.Traces.Get(r.PathValue("id"))
	if !ok {
		writeError(w, http.StatusNotFound, "no recent trace "+r.PathValue("id"))
		return
	}
	writeJSON(w, http.StatusOK, tr)
}

// Memory is the reflection memory as operators see it.
type Memory interface {
	List(conference string) []memory.Lesson
	Clear(ctx context.Context, conference string) (int, error)
}

// listMemory lists the remembered lessons, of one conference with
// ?conference=, newest first.
func (s *Server) listMemory(w http.ResponseWriter, r *http.Request) {
	if s.opts.Memory == nil {
		writeError(w, http.StatusNotFound, "reflection memory is off (MEMORY_ENABLED=false)")
		return
	}
	lessons := s.opts.Memory.List(r.URL.Query().Get("conference"))
	if lessons == nil {
		lessons = []memory.Lesson{}
	}
	writeJSON(w, http.StatusOK, map[string]any{"lessons": lessons, "count": len(lessons)})
}

// clearMemory forgets the lessons of one conference (?conference=) or,
// with ?all=true, of every conference: clearing everything is never the
// accident of a missing parameter.
func (s *Server) clearMemory(w http.ResponseWriter, r *http.Request) {
	if s.opts.Memory == nil {
		writeError(w, http.StatusNotFound, "reflection memory is off (MEMORY_ENABLED=false)")
		return
	}
	conf := r.URL.Query().Get("conference")
	if conf == "" && r.URL.Query().Get("all") != "true" {
		writeError(w, http.StatusBadRequest, "name a conference (?conference=ID) or clear every one with ?all=true")
		return
	}
	n, err := s.opts.Memory.Clear(r.Context(), conf)
	if err != nil {
		s.log.Error("clearing memory failed", "conference", conf, "err", err)
		writeError(w, http.StatusBadGateway, "the memory could not be cleared; try again")
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"cleared": n})
}
